import Foundation
import Parley
import ParleyCBOR
import ParleyJSON
import ParleyTestKit
import Testing

@Suite struct CBORFormatTests {
    let cbor = CBORFormat()
    let json = JSONFormat()

    static let samples: [Value] = FormatConformance.standardSamples + [
        ["when": .date(Date(timeIntervalSince1970: 1_700_000_000)), "blob": .bytes([0, 1, 255]),
         "huge": .number("18446744073709551616"), "hugeNegative": .number("-18446744073709551617"),
         "uri": .tagged("cbor.tag.32", "http://example.com"), "undefined": .tagged("cbor.undefined", .null),
         "simple": .tagged("cbor.simple", 16), "half": 1.5, "nan-free": -0.0],
        .tagged("cbor.map", [[1, "one"], [.bytes([2]), "two"], [["nested"], .null]]),
    ]

    @Test func conformsToTheKit() {
        FormatConformance.expectConformance(of: cbor, options: .init(
            samples: Self.samples,
            // A CBOR sequence of one non-array value decodes as a one-element array.
            equivalent: { original, decoded in
                if decoded == original { return true }
                if case .array = original { return false }
                return decoded == [original]
            },
            malformedInputs: [[0x1C], [0x01, 0x01], [0x61, 0xFF], [0xFF], [0x9F, 0x01], [0xBF, 0x01, 0xFF],
                              [0xF8, 0x10], [0x5F, 0x61, 0x61, 0xFF], [0xC0, 0x01], [0xC2, 0x01], [0x1F], [0xDF]],
            otherFormats: Registry.builtInFormats + [json]))
    }

    @Test func registersItsTypesAndTheSuffixes() {
        let registry = Registry(formats: [json, cbor])
        for type in ["application/cbor", "application/vnd.example+cbor", "application/cbor-seq",
                     "application/vnd.example+cbor-seq", "application/cose+cbor; cose-type=cose-sign1"] {
            #expect(registry.decoder(forContentType: type)?.format.name == "cbor", "\(type)")
        }
        // The engine maps +cbor of any top-level type to application/cbor (RFC 8949 §9.5).
        #expect(registry.decoder(forContentType: "model/example+cbor")?.format.name == "cbor")
        #expect(registry.encoder(forAccept: "application/json;q=0.5, application/cbor")?.format.name == "cbor")
        #expect(registry.encoder(forAccept: "application/cbor-seq")?.mediaType == CBORFormat.applicationCBORSequence)
    }

    @Test func aSequenceDecodesToAnArrayAndAnArrayEncodesAsItsItems() throws {
        let items: [UInt8] = [0x01, 0x62, 0x68, 0x69, 0xA1, 0x61, 0x61, 0xF5, 0x80]
        #expect(try cbor.decode(items, as: "application/cbor-seq") == [1, "hi", ["a": true], []])
        #expect(try cbor.decode([], as: "application/cbor-seq") == [])
        #expect(try cbor.decode(items, as: "application/vnd.example+cbor-seq") == [1, "hi", ["a": true], []])
        #expect(try cbor.encode([1, "hi", ["a": true], []], as: "application/cbor-seq") == items)
        #expect(try cbor.encode("alone", as: "application/cbor-seq") == [0x65] + Array("alone".utf8))
        // As one item, the same bytes have four bytes too many.
        let error = #expect(throws: FormatError.self) { try cbor.decode(items) }
        #expect(error?.code == .malformed)
        #expect(error?.location?.byteOffset == 1)
        // A truncated last item of a sequence is still an error.
        #expect(throws: FormatError.self) { try cbor.decode(items + [0x62, 0x68], as: "application/cbor-seq") }
    }

    @Test func jsonSurvivesCBORExactly() throws {
        for text in [
            #"{"id": 1, "name": "Ada", "tags": ["x", "y"], "nested": {"deep": [[], {}, null, true, false]}}"#,
            #"[0, 23, 24, 255, 256, 65535, 65536, 4294967295, 4294967296, 9223372036854775807]"#,
            #"[-1, -24, -25, -256, -257, -65536, -65537, -4294967296, -4294967297, -9223372036854775808]"#,
            #"[9223372036854775808, 18446744073709551615, 18446744073709551616]"#,
            #"[-9223372036854775809, -18446744073709551616, -18446744073709551617]"#,
            #"[0.30000000000000004, 0.5, 1.5e300, -2.25e-300, 123456789012345678901234567890]"#,
            #"{"unicode": "héllo ✓ 𝄞 \u0000 \"\\", "long": "\#(String(repeating: "é", count: 300))"}"#,
            #"{"dup": 1, "dup": 2, "order": {"z": 1, "a": 2}}"#,
        ] {
            let original = try json.decode(Array(text.utf8))
            let back = try json.decode(try json.encode(try cbor.decode(try cbor.encode(original))))
            #expect(back == original, "\(text)")
        }
    }

    @Test func decimalsNoFloatHoldsTravelAsDecimalFractions() throws {
        let exact: Value = .number("0.1234567890123456789")
        let bytes = try cbor.encode(exact)
        #expect(Array(bytes.prefix(3)) == [0xC4, 0x82, 0x32])   // 4([-19, …])
        #expect(try cbor.decode(bytes) == .number("1234567890123456789e-19"))
        #expect(try cbor.decode(try cbor.encode(.number("1e400"))) == .number("1e400"))
        #expect(try cbor.decode([0xC4, 0x82, 0x21, 0x19, 0x6A, 0xB3]) == .number("27315e-2"))   // RFC 8949 §3.4.4
    }

    @Test func codableWorksThroughTheValueTree() throws {
        struct Point: Codable, Equatable { var x: Int; var y: Double; var label: String; var at: Date }
        let point = Point(x: -3, y: 0.5, label: "p", at: Date(timeIntervalSince1970: 1_363_896_240.5))
        let value = try ValueEncoder().encode(point)
        let decoded = try ValueDecoder().decode(Point.self, from: try cbor.decode(try cbor.encode(value)))
        #expect(decoded == point)
    }

    @Test func sniffsTheSelfDescribeTagAndAWellFormedFirstItem() {
        func sniff(_ bytes: [UInt8]) -> MediaType? { bytes.withUnsafeBytes { cbor.sniff($0) } }
        #expect(sniff([0xD9, 0xD9, 0xF7, 0x01]) == "application/cbor")
        #expect(sniff([0xA1, 0x61, 0x61, 0x01]) == "application/cbor")
        #expect(sniff([0x9F, 0x01, 0x02, 0xFF]) == "application/cbor")
        #expect(sniff([0xC1, 0x1A, 0x51, 0x4B, 0x67, 0xB0]) == "application/cbor")
        #expect(sniff([0xA1, 0x61, 0x61]) == nil)              // truncated
        #expect(sniff([0xA1, 0x61, 0x61, 0x01, 0x01]) == nil)  // more than one item
        #expect(sniff([0x83, 0x01, 0x02, 0x1C]) == nil)        // reserved additional information
        // Text never sniffs as CBOR, even where its first byte would be a well-formed item.
        for text in [#"{"a": 1}"#, "[1, 2]", "1", "42", #""text""#, "name,age\nAda,36\n", "<a/>", "key: value", "é"] {
            #expect(sniff(Array(text.utf8)) == nil, "\(text)")
        }
        // A large well-formed document is recognised from its first heads.
        let big = (try? cbor.encode(.array((0..<10_000).map { .integer($0) }))) ?? []
        #expect(sniff(big) == "application/cbor")
        let registry = Registry(formats: [json, cbor])
        #expect(registry.sniff([0xD9, 0xD9, 0xF7, 0xA0])?.format.name == "cbor")
        let mislabelled = registry.mislabelling(of: [0xA1, 0x61, 0x61, 0x01], labelledAs: "application/json")
        #expect(mislabelled?.mediaType == "application/cbor")
        #expect(registry.mislabelling(of: Array("42".utf8), labelledAs: "application/json") == nil)
    }
}

/// Reading a CBOR sequence item by item.
@Suite struct CBORSequenceStreamingTests {
    let cbor = CBORFormat()

    @Test func itemsArriveOneByOneInOrder() throws {
        var seen: [Value] = []
        let sequence: [UInt8] = [0x01, 0x62, 0x68, 0x69, 0xA1, 0x61, 0x61, 0xF5, 0x80]
        try cbor.forEachItem(inSequence: sequence) { seen.append($0) }
        #expect(seen == [1, "hi", ["a": true], []])
        var none = 0
        try cbor.forEachItem(inSequence: [UInt8]()) { _ in none += 1 }
        #expect(none == 0)
    }

    @Test func theItemsBeforeABrokenOneAreDelivered() {
        var seen: [Value] = []
        let error = #expect(throws: FormatError.self) {
            let lying: [UInt8] = [0x01, 0x02, 0x9B, 0x80, 0, 0, 0, 0, 0, 0, 0]
            try cbor.forEachItem(inSequence: lying) { seen.append($0) }
        }
        #expect(error?.code == .truncated)
        #expect(error?.location?.byteOffset == 2)
        #expect(seen == [1, 2])
    }

    @Test func theBodyCanStopTheReadingAndLimitsCoverTheWholeSequence() {
        struct Enough: Error {}
        var seen = 0
        #expect(throws: Enough.self) {
            try cbor.forEachItem(inSequence: [UInt8](repeating: 0x01, count: 100)) { _ in
                seen += 1
                if seen == 3 { throw Enough() }
            }
        }
        #expect(seen == 3)
        let error = #expect(throws: FormatError.self) {
            try cbor.forEachItem(inSequence: [UInt8](repeating: 0x01, count: 100),
                                 limits: DecodingLimits(maxNodes: 50)) { _ in }
        }
        #expect(error?.limit?.name == "maxNodes")
    }
}
