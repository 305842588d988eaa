import Foundation
import Parley
import ParleyCBOR
import Testing

/// Malformed and hostile input: every case a typed error with its code, in constant memory and
/// without deep recursion.
@Suite struct CBORHostileInputTests {
    let cbor = CBORFormat()

    func code(_ bytes: [UInt8], limits: DecodingLimits = .standard, format: CBORFormat = CBORFormat(),
              as type: MediaType = "application/cbor") -> FormatError.Code? {
        do {
            _ = try format.decode(bytes, as: type, limits: limits)
            return nil
        } catch let error as FormatError {
            return error.code
        } catch {
            return FormatError.Code("not a FormatError: \(error)")
        }
    }

    /// Lengths and counts of 2^63 and 2^64 − 1 in a few bytes: refused before anything is allocated.
    @Test(arguments: [0x5B, 0x7B, 0x9B, 0xBB] as [UInt8])
    func lyingLengthsAreTruncatedErrors(initial: UInt8) {
        for argument: [UInt8] in [[0x80, 0, 0, 0, 0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
                                  [0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00]] {
            #expect(code([initial] + argument + [0x00, 0x00]) == .truncated)
        }
        // Inside an indefinite-length string, a chunk can lie too.
        #expect(code([0x5F, 0x5B, 0x80, 0, 0, 0, 0, 0, 0, 0, 0xFF]) == .truncated)
        #expect(code([0x9A, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]) == .truncated)
    }

    /// Arrays nested 500 deep, each declaring as many elements as there are filler bytes: each
    /// count is plausible alone, together they lie. Truncated; only the outermost reserves room.
    @Test func nestedLyingCountsAreTruncated() {
        let filler = 200_000
        var bytes: [UInt8] = []
        for _ in 0..<500 { bytes += [0x9A] + withUnsafeBytes(of: UInt32(filler).bigEndian, Array.init) }
        bytes += [UInt8](repeating: 0, count: filler)
        #expect(code(bytes) == .truncated)
    }

    @Test func nestingBeyondTheDepthLimitStops() {
        for opener: UInt8 in [0x81, 0x9F, 0xC6, 0xA1] {
            var deep = [UInt8](repeating: opener, count: 200_000)
            if opener == 0xA1 {
                deep = [0xA1] + (0..<100_000).flatMap { _ in [0x61, 0x61, 0xA1] as [UInt8] }
            }
            #expect(code(deep) == .limitExceeded, "\(opener)")
            #expect(code(deep, limits: DecodingLimits(maxDepth: 10)) == .limitExceeded)
        }
        // Exactly at the limit decodes.
        let ten = [UInt8](repeating: 0x81, count: 9) + [0x80]
        #expect(code(ten, limits: DecodingLimits(maxDepth: 10)) == nil)
        #expect(code([0x81] + ten, limits: DecodingLimits(maxDepth: 10)) == .limitExceeded)
    }

    @Test func indefiniteNestingHasItsOwnLimit() {
        let sixtyFour = [UInt8](repeating: 0x9F, count: 64) + [UInt8](repeating: 0xFF, count: 64)
        #expect(code(sixtyFour) == nil)
        #expect(code([0x9F] + sixtyFour + [0xFF]) == .limitExceeded)
        let loose = CBORFormat(options: .init(maxIndefiniteNesting: 100))
        #expect(code([0x9F] + sixtyFour + [0xFF], format: loose) == nil)
        // Unclosed indefinite containers are truncated, not hung.
        #expect(code([UInt8](repeating: 0x9F, count: 60)) == .truncated)
    }

    @Test func itemCountAndBodySizeAreBounded() {
        let thousand: [UInt8] = [0x99, 0x03, 0xE8] + [UInt8](repeating: 0x00, count: 1000)
        #expect(code(thousand) == nil)
        #expect(code(thousand, limits: DecodingLimits(maxNodes: 1000)) == .limitExceeded)
        #expect(code(thousand, limits: DecodingLimits(maxBodyBytes: 1002)) == .limitExceeded)
        // Chunks of an indefinite-length string count as items too.
        let chunks: [UInt8] = [0x5F] + [UInt8](repeating: 0x40, count: 5000) + [0xFF]
        #expect(code(chunks, limits: DecodingLimits(maxNodes: 1000)) == .limitExceeded)
    }

    @Test func bignumsBeyondTheirLimitAreRefused() {
        let big: [UInt8] = [0xC2, 0x59, 0x04, 0x01] + [UInt8](repeating: 0xFF, count: 1025)
        #expect(code(big) == .limitExceeded)
        #expect(code(big, format: CBORFormat(options: .init(maxBignumBytes: 2048))) == nil)
        // Leading zero bytes do not count.
        #expect(code([0xC2, 0x59, 0x04, 0x01] + [UInt8](repeating: 0, count: 1024) + [0x07]) == nil)
    }

    @Test(arguments: [
        ([0x1C], "reserved additional information"), ([0x3E], "reserved"), ([0xFD], "reserved simple"),
        ([0x1F], "no indefinite integer"), ([0xDF, 0x01], "no indefinite tag"), ([0xFF], "break at the top"),
        ([0x81, 0xFF], "break in a definite array"), ([0xBF, 0x01, 0xFF], "break after a key"),
        ([0x5F, 0x61, 0x61, 0xFF], "text chunk in a byte string"), ([0x7F, 0x7F, 0xFF, 0xFF], "nested indefinite text"),
        ([0xF8, 0x17], "two-byte simple value below 24"), ([0x00, 0x00], "trailing byte"),
        ([0xC6, 0xFF], "break as a tag's content"),
    ] as [([UInt8], String)])
    func malformedItemsAreMalformed(bytes: [UInt8], why: String) {
        #expect(code(bytes) == .malformed, "\(why)")
    }

    @Test func invalidUTF8IsInvalidText() {
        #expect(code([0x62, 0xC3, 0x28]) == .invalidText)
        #expect(code([0x7F, 0x61, 0xC3, 0x61, 0xA9, 0xFF]) == .invalidText)   // a character split across chunks
        #expect(code([0xA1, 0x61, 0xFF, 0x01]) == .invalidText)
        // Invalid bytes among ASCII ones in longer text, in each eight-byte word and the last.
        for bad in [0, 7, 8, 12, 15, 16, 19] {
            var text = [UInt8](repeating: UInt8(ascii: "a"), count: 20)
            text[bad] = 0xFF
            #expect(code([0x74] + text) == .invalidText, "\(bad)")
            #expect(code([0xA1, 0x74] + text + [0x01]) == .invalidText, "key \(bad)")
        }
        #expect(code([0x67, 0x61, 0x61, 0x61, 0xC3, 0x61, 0x61, 0x61, 0x00]) == .invalidText)
    }

    @Test func shortTextIsCheckedAtEveryByte() throws {
        // Texts of up to 16 bytes (read inline when ASCII): each decodes as itself, and a byte
        // that is not UTF-8 anywhere in one is invalidText at that byte, as a value or as a key.
        for length in 1...16 {
            let ascii = (0..<length).map { UInt8(ascii: "a") + UInt8($0) }
            let head: [UInt8] = [0x60 + UInt8(length)]
            #expect(try cbor.decode(head + ascii) == .string(String(decoding: ascii, as: UTF8.self)))
            for bad in 0..<length {
                var text = ascii
                text[bad] = 0x80
                var error: FormatError?
                do { _ = try cbor.decode(head + text) } catch let thrown as FormatError { error = thrown }
                #expect(error?.code == .invalidText, "length \(length), byte \(bad)")
                #expect(error?.location?.byteOffset == head.count + bad, "length \(length), byte \(bad)")
                #expect(code([0xA1] + head + text + [0x01]) == .invalidText, "key: length \(length), byte \(bad)")
            }
        }
    }

    @Test func everyTruncationOfARichDocumentIsAnError() throws {
        let document = try cbor.encode([
            "a": [1, -1, 1.5, 1.1, "text", .bytes([1, 2]), .number("18446744073709551616"),
                  .tagged("cbor.tag.99", [nil])],
            "b": ["c": .date(.init(timeIntervalSince1970: 1.5)), "d": .tagged("cbor.map", [[1, 2]])],
        ])
        for cut in 0..<document.count {
            #expect(code(Array(document.prefix(cut))) == .truncated, "cut at \(cut)")
        }
        #expect(code(document) == nil)
    }
}
