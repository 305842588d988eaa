import Foundation
import Parley
import ParleyCBOR
import ParleyJSON
import ParleyTestKit
import Testing

/// RFC 8949 Appendix A (`../shared/corpora/cbor/appendix_a.json`, the 82 examples as published
/// with RFC 7049): every vector decodes; where the manifest gives the decoded value as JSON the
/// value is equal; every vector marked `roundtrip` re-encodes byte for byte.
@Suite struct AppendixAVectorTests {
    struct Vector: Sendable, CustomStringConvertible {
        var hex: String
        var bytes: [UInt8]
        var roundtrip: Bool
        var decoded: Value?
        var diagnostic: String?
        var description: String { hex }
    }

    static let directory = Corpora.directory("cbor")

    static let vectors: [Vector] = {
        guard let directory,
              let data = try? Data(contentsOf: directory.appendingPathComponent("appendix_a.json")),
              case .array(let entries)? = try? JSONFormat().decode([UInt8](data)) else { return [] }
        return entries.map { entry in
            let hex = entry["hex"]?.stringValue ?? ""
            return Vector(hex: hex, bytes: bytes(hex: hex), roundtrip: entry["roundtrip"]?.boolValue ?? false,
                          decoded: entry["decoded"], diagnostic: entry["diagnostic"]?.stringValue)
        }
    }()

    static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// The values the diagnostic-only vectors stand for, written out by hand from RFC 8949's table.
    static let diagnosticValues: [String: Value] = [
        "f97c00": .float(.infinity), "f9fc00": .float(-.infinity),
        "fa7f800000": .float(.infinity), "faff800000": .float(-.infinity),
        "fb7ff0000000000000": .float(.infinity), "fbfff0000000000000": .float(-.infinity),
        "f7": .tagged("cbor.undefined", .null),
        "f0": .tagged("cbor.simple", 16), "f818": .tagged("cbor.simple", 24), "f8ff": .tagged("cbor.simple", 255),
        "c074323031332d30332d32315432303a30343a30305a": .date(Date(timeIntervalSince1970: 1_363_896_240)),
        "c11a514b67b0": .date(Date(timeIntervalSince1970: 1_363_896_240)),
        "c1fb41d452d9ec200000": .date(Date(timeIntervalSince1970: 1_363_896_240.5)),
        "d74401020304": .tagged("cbor.tag.23", .bytes([1, 2, 3, 4])),
        "d818456449455446": .tagged("cbor.tag.24", .bytes([0x64, 0x49, 0x45, 0x54, 0x46])),
        "d82076687474703a2f2f7777772e6578616d706c652e636f6d": .tagged("cbor.tag.32", "http://www.example.com"),
        "40": .bytes([]), "4401020304": .bytes([1, 2, 3, 4]),
        "a201020304": ["1": 2, "3": 4],
        "5f42010243030405ff": .bytes([1, 2, 3, 4, 5]),
    ]

    /// Numbers compare by value within their family (a JSON `0.0` or `5.960464477539063e-08` is
    /// a float, `18446744073709551615` an integer, whatever case holds it); the rest exactly.
    static func matches(_ expected: Value, _ actual: Value) -> Bool {
        switch (expected, actual) {
        case (.float(let e), .float(let a)): return e == a && e.sign == a.sign || (e.isNaN && a.isNaN)
        case (.integer(let e), .number(let a)), (.number(let a), .integer(let e)): return String(e) == a
        // JSON keeps a 17-digit decimal as text; it is the shortest text of the float it names.
        case (.number(let e), .float(let a)): return Double(e) == a
        case (.array(let e), .array(let a)): return e.count == a.count && zip(e, a).allSatisfy { matches($0, $1) }
        case (.object(let e), .object(let a)):
            return e.count == a.count && zip(e, a).allSatisfy { $0.key == $1.key && matches($0.value, $1.value) }
        default: return expected == actual
        }
    }

    /// The options a vector re-encodes with: tag 0 dates are written as text, and a map with
    /// integer keys keeps them, when the vector holds one.
    static func encodingFormat(for vector: Vector) -> CBORFormat {
        CBORFormat(options: .init(dateEncoding: vector.hex.hasPrefix("c0") ? .text : .epochSeconds,
                                  keepsNonTextKeys: vector.hex == "a201020304"))
    }

    let cbor = CBORFormat()

    @Test func corpusIsPresentOrSkippedVisibly() {
        if Self.directory == nil {
            print(Corpora.missingMessage("cbor"))
            return
        }
        let withValues = Self.vectors.filter { $0.decoded != nil }
        let diagnosticOnly = Self.vectors.filter { $0.diagnostic != nil }
        #expect(Self.vectors.count == 82)
        #expect(withValues.count == 59)
        #expect(diagnosticOnly.count == 23)
        var equal = 0, decodedDiagnostic = 0, diagnosticChecked = 0, reencoded = 0, reencodedWithOption = 0
        for vector in Self.vectors {
            guard let value = try? cbor.decode(vector.bytes) else { continue }
            if let expected = vector.decoded, Self.matches(expected, value) { equal += 1 }
            if vector.diagnostic != nil {
                decodedDiagnostic += 1
                if let expected = Self.diagnosticValues[vector.hex], Self.matches(expected, value) {
                    diagnosticChecked += 1
                }
            }
            let format = Self.encodingFormat(for: vector)
            if vector.roundtrip, let again = try? format.decode(vector.bytes),
               (try? format.encode(again)) == vector.bytes {
                reencoded += 1
                if format.options != CBORFormat.Options() { reencodedWithOption += 1 }
            }
        }
        let roundtrips = Self.vectors.filter(\.roundtrip).count
        print("""
            RFC 8949 Appendix A: \(Self.vectors.count) vectors; \(equal) of \(withValues.count) equal their \
            JSON value; \(decodedDiagnostic) of \(diagnosticOnly.count) diagnostic-only vectors decode \
            (\(diagnosticChecked) checked \
            against a hand-written value); \(reencoded) of \(roundtrips) roundtrip vectors re-encode byte for byte \
            (\(reencodedWithOption) with a non-default option: tag 0 dates as text, integer map keys kept)
            """)
        #expect(equal == withValues.count)
        #expect(decodedDiagnostic == diagnosticOnly.count)
        #expect(diagnosticChecked == Self.diagnosticValues.count)
        #expect(reencoded == roundtrips)
    }

    @Test(arguments: vectors.filter { $0.decoded != nil })
    func decodesToTheGivenValue(_ vector: Vector) throws {
        let value = try cbor.decode(vector.bytes)
        #expect(Self.matches(vector.decoded!, value), "\(vector.hex): \(value)")
    }

    @Test(arguments: vectors.filter { $0.diagnostic != nil })
    func decodesEveryDiagnosticOnlyVector(_ vector: Vector) throws {
        let value = try cbor.decode(vector.bytes)
        if vector.diagnostic == "NaN" {
            #expect(value.doubleValue?.isNaN == true)
        } else if vector.hex == "7f657374726561646d696e67ff" {
            #expect(value == "streaming")
        } else {
            let expected = try #require(Self.diagnosticValues[vector.hex], "no hand-written value for \(vector.hex)")
            #expect(Self.matches(expected, value), "\(vector.hex) (\(vector.diagnostic ?? "")): \(value)")
        }
    }

    @Test(arguments: vectors.filter(\.roundtrip))
    func reencodesByteForByte(_ vector: Vector) throws {
        let format = Self.encodingFormat(for: vector)
        let encoded = try format.encode(try format.decode(vector.bytes))
        let hex = encoded.map { String(format: "%02x", $0) }.joined()
        #expect(encoded == vector.bytes, "\(vector.hex) re-encoded as \(hex)")
    }

    /// Every proper prefix of every vector is a typed error, never a value or a crash.
    @Test(arguments: vectors.filter { $0.bytes.count > 1 })
    func everyTruncationIsTruncated(_ vector: Vector) {
        for cut in 1..<vector.bytes.count {
            let error = #expect(throws: FormatError.self) { try cbor.decode(Array(vector.bytes.prefix(cut))) }
            #expect(error?.code == .truncated, "\(vector.hex) cut at \(cut): \(String(describing: error))")
        }
    }
}
