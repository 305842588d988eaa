import FoundationEssentials
import Parley
import ParleyJSON
import ParleyMessagePack
import ParleyTestKit
import Testing

@Suite struct MessagePackFormatTests {
    let msgpack = MessagePackFormat()
    let json = JSONFormat()

    static let samples: [Value] = FormatConformance.standardSamples + [
        ["when": .date(Date(timeIntervalSince1970: 1_700_000_000)), "blob": .bytes([0, 1, 255]),
         "huge": .number("18446744073709551615"), "ext": .tagged("msgpack.ext.7", .bytes([1, 2, 3]))],
    ]

    @Test func conformsToTheKit() {
        FormatConformance.expectConformance(of: msgpack, options: .init(
            samples: Self.samples,
            malformedInputs: [[0xC1], [0x01, 0x01], [0xA1, 0xFF]],
            otherFormats: [json]))
    }

    @Test func registersItsTypesAndTheSuffix() {
        let registry = Registry(formats: [json, msgpack])
        for type in ["application/msgpack", "application/x-msgpack", "application/vnd.example+msgpack"] {
            #expect(registry.decoder(forContentType: type)?.format.name == "msgpack")
        }
        #expect(registry.encoder(forAccept: "application/json;q=0.5, application/msgpack")?.format.name == "msgpack")
    }

    /// JSON → MessagePack → JSON gives back exactly the value JSON decoded, exact numbers included.
    @Test(arguments: [
        #"{"id": 1, "name": "Ada", "tags": ["x", "y"], "nested": {"deep": [[], {}, null, true, false]}}"#,
        #"[0, 127, 128, 255, 256, 65535, 65536, 4294967295, 4294967296, 9223372036854775807]"#,
        #"[-1, -32, -33, -128, -129, -32768, -32769, -2147483648, -2147483649, -9223372036854775808]"#,
        #"[9223372036854775808, 18446744073709551615, 0.30000000000000004, 0.5, 1.5e300, -2.25e-300]"#,
        #"{"unicode": "héllo ✓ 𝄞 \u0000 \"\\", "long": "\#(String(repeating: "é", count: 300))"}"#,
        #"{"dup": 1, "dup": 2, "order": {"z": 1, "a": 2}}"#,
    ])
    func jsonSurvivesMessagePackExactly(text: String) throws {
        let original = try json.decode(Array(text.utf8))
        let packed = try msgpack.encode(original)
        let back = try json.decode(try json.encode(try msgpack.decode(packed)))
        #expect(back == original)
    }

    @Test func codableWorksThroughTheValueTree() throws {
        struct Point: Codable, Equatable { var x: Int; var y: Double; var label: String }
        let point = Point(x: -3, y: 0.5, label: "p")
        let value = try ValueEncoder().encode(point)
        let decoded = try ValueDecoder().decode(Point.self, from: try msgpack.decode(try msgpack.encode(value)))
        #expect(decoded == point)
    }

    /// A document large enough for the reader's table of recent keys: keys of every length up to 15 (made once, then
    /// found again) and a longer one decode as themselves, and an invalid key deep in it is still located.
    @Test func aLargeDocumentsRepeatedKeysDecodeAsThemselves() throws {
        let keys = (0...16).map { String("abcdefghijklmnopq".prefix($0)) } + ["é-ü", "\u{01}x"]
        let records: [Value] = (0..<400).map { record in
            .object(Value.Object(keys.enumerated().map { .init(key: $1, value: .integer(Int64(record * 100 + $0))) }))
        }
        let bytes = try msgpack.encode(.array(records))
        #expect(bytes.count >= 16 * 1024)
        #expect(try msgpack.decode(bytes) == .array(records))
        // The last record's "\u{01}x" key, its first byte made invalid UTF-8.
        var invalid = bytes
        let at = try #require(invalid.lastIndex(of: 0x01))
        invalid[at] = 0xFF
        let error = #expect(throws: FormatError.self) { try msgpack.decode(invalid) }
        #expect(error?.code == .invalidText)
        #expect(error?.location?.byteOffset == at)
    }
}
