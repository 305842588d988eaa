import Foundation
import Parley
import Testing

@Suite struct ValueEncoderTests {
    struct Record: Codable, Equatable {
        var id: Int
        var name: String
        var ratio: Float
        var big: UInt64
        var when: Date
        var blob: Data
        var link: URL
        var children: [Record]
        var note: String?
    }

    let sample = Record(id: 1, name: "root", ratio: 0.1, big: .max, when: Date(timeIntervalSince1970: 0),
                        blob: Data([1, 2]), link: URL(string: "https://example.com")!,
                        children: [Record(id: 2, name: "leaf", ratio: 2, big: 0, when: Date(timeIntervalSince1970: 1),
                                          blob: Data(), link: URL(string: "a:b")!, children: [], note: "n")],
                        note: nil)

    @Test func encodesToTheValueTreeInDeclarationOrder() throws {
        let value = try ValueEncoder().encode(sample)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["id", "name", "ratio", "big", "when", "blob", "link", "children"])
        #expect(value["ratio"] == .float(0.1))
        #expect(value["big"] == .number("18446744073709551615"))
        #expect(value["when"] == .date(Date(timeIntervalSince1970: 0)))
        #expect(value["blob"] == .bytes([1, 2]))
        #expect(value["link"] == "https://example.com")
        #expect(value["children"]?[0]?["note"] == "n")
    }

    @Test func roundTripsThroughTheDecoder() throws {
        let value = try ValueEncoder().encode(sample)
        #expect(try ValueDecoder().decode(Record.self, from: value) == sample)
        let strings = try ValueEncoder(dateEncodingStrategy: .iso8601, dataEncodingStrategy: .base64).encode(sample)
        #expect(strings["when"] == "1970-01-01T00:00:00Z")
        #expect(strings["blob"] == "AQI=")
        #expect(try ValueDecoder().decode(Record.self, from: strings) == sample)
    }

    @Test func encodesDatesAndDataByStrategy() throws {
        let date = Date(timeIntervalSince1970: 2)
        #expect(try ValueEncoder(dateEncodingStrategy: .secondsSince1970).encode(date) == .float(2))
        #expect(try ValueEncoder(dateEncodingStrategy: .millisecondsSince1970).encode(date) == .float(2000))
        #expect(try ValueEncoder(dataEncodingStrategy: .deferredToData).encode(Data([7])) == [7])
    }

    struct Twice: Encodable {
        enum CodingKeys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(1, forKey: .a)
            try container.encode(2, forKey: .b)
            try container.encode(3, forKey: .a)
        }
    }

    @Test func aRepeatedKeyReplacesItsValueInPlace() throws {
        #expect(try ValueEncoder().encode(Twice()) == ["a": 3, "b": 2])
    }

    @Test func encodesDictionariesOptionalsAndNil() throws {
        #expect(try ValueEncoder().encode(["x": [1, 2]]) == ["x": [1, 2]])
        #expect(try ValueEncoder().encode([Int?.none, 1]) == [nil, 1])
        #expect(try ValueEncoder().encode("plain") == "plain")
    }
}
