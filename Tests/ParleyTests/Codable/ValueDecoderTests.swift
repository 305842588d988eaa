import Foundation
import Parley
import Testing

@Suite struct ValueDecoderTests {
    struct Address: Codable, Equatable {
        var street: String
        var zip: String?
    }

    struct User: Codable, Equatable {
        var id: Int
        var name: String
        var score: Double
        var active: Bool
        var tags: [String]
        var address: Address
        var nickname: String?
        var small: UInt8
    }

    let decoder = ValueDecoder()

    var userValue: Value {
        ["id": 7, "name": "Ada", "score": 9.5, "active": true, "tags": ["a", "b"],
         "address": ["street": "Main", "zip": nil], "small": 255]
    }

    @Test func decodesNestedStructsOptionalsAndArrays() throws {
        let user = try decoder.decode(User.self, from: userValue)
        #expect(user == User(id: 7, name: "Ada", score: 9.5, active: true, tags: ["a", "b"],
                             address: Address(street: "Main", zip: nil), nickname: nil, small: 255))
    }

    @Test func lastMemberWinsForRepeatedKeys() throws {
        let value: Value = .object(
            Value.Object([.init(key: "street", value: "old"), .init(key: "street", value: "new")]))
        #expect(try decoder.decode(Address.self, from: value).street == "new")
    }

    @Test func findsKeysInLargeObjectsThroughTheIndex() throws {
        var object = Value.Object()
        for i in 0..<40 { object.append(key: "k\(i)", value: .integer(Int64(i))) }
        object.append(key: "street", value: "Wide")
        let decoded = try decoder.decode([String: Int].self, from: .object(Value.Object(object.members.dropLast())))
        #expect(decoded.count == 40 && decoded["k39"] == 39)
        #expect(try decoder.decode(Address.self, from: .object(object)).street == "Wide")
    }

    struct Arrays: Codable, Equatable {
        var doubles: [Double]
        var floats: [Float]
        var ints: [Int]
        var longs: [Int64]
        var strings: [String]
        var flags: [Bool]
        var nested: [[Double]]
    }

    @Test func decodesArraysOfPrimitivesDirectlyWithElementPaths() throws {
        let value: Value = [
            "doubles": [1.5, 2, .number("3")], "floats": [0.5], "ints": [1, 2.0], "longs": [.number("-9")],
            "strings": ["a", .tagged("!x", "b")], "flags": [true, false], "nested": [[1], [], [2, 3]]
        ]
        let decoded = try decoder.decode(Arrays.self, from: value)
        #expect(decoded == Arrays(doubles: [1.5, 2, 3], floats: [0.5], ints: [1, 2], longs: [-9], strings: ["a", "b"],
                                  flags: [true, false], nested: [[1], [], [2, 3]]))
        var broken = value.objectValue!
        broken["nested"] = [[1], [2, "x"]]
        let error = try #require(throws: DecodingError.self) { try decoder.decode(Arrays.self, from: .object(broken)) }
        guard case .typeMismatch(_, let context) = error else { Issue.record("\(error)"); return }
        #expect(context.codingPath.map(\.stringValue) == ["nested", "Index 1", "Index 1"])
        broken["nested"] = [[1]]
        broken["strings"] = ["a", nil]
        let null = try #require(throws: DecodingError.self) { try decoder.decode(Arrays.self, from: .object(broken)) }
        guard case .valueNotFound(_, let nullContext) = null else { Issue.record("\(null)"); return }
        #expect(nullContext.codingPath.map { $0.intValue } == [nil, 1])
        #expect(throws: DecodingError.self) { try decoder.decode([Double].self, from: ["a": 1]) }
        #expect(try decoder.decode([Int].self, from: []) == [])
    }

    @Test func checksIntegerRanges() throws {
        let error = try #require(throws: DecodingError.self) { try decoder.decode([UInt8].self, from: [1, 256]) }
        guard case .dataCorrupted(let context) = error else { Issue.record("\(error)"); return }
        #expect(context.codingPath.map { $0.intValue } == [1])
        #expect(throws: DecodingError.self) { try decoder.decode(Int8.self, from: -129) }
        #expect(throws: DecodingError.self) { try decoder.decode(UInt.self, from: -1) }
        #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: 1.5) }
        #expect(try decoder.decode(Int.self, from: 2.0) == 2)
        #expect(try decoder.decode(UInt64.self, from: .number("18446744073709551615")) == .max)
        #expect(throws: DecodingError.self) { try decoder.decode(UInt64.self, from: .number("18446744073709551616")) }
        #expect(try decoder.decode(Double.self, from: .number("0.30000000000000004")) == 0.30000000000000004)
        #expect(throws: DecodingError.self) { try decoder.decode(Double.self, from: .number("1e400")) }
        #expect(throws: DecodingError.self) { try decoder.decode(Float.self, from: 1e300) }
    }

    @Test func reportsMissingKeysAndNullsWithTheirPath() throws {
        var value = userValue
        value = .object({ var o = value.objectValue!; o["address"] = ["zip": "1"]; return o }())
        let error = try #require(throws: DecodingError.self) { try decoder.decode(User.self, from: value) }
        guard case .keyNotFound(let key, let context) = error else { Issue.record("\(error)"); return }
        #expect(key.stringValue == "street")
        #expect(context.codingPath.map(\.stringValue) == ["address"])

        let nullName = try #require(throws: DecodingError.self) {
            try decoder.decode(Address.self, from: ["street": nil])
        }
        guard case .valueNotFound = nullName else { Issue.record("\(nullName)"); return }
        let wrongType = try #require(throws: DecodingError.self) {
            try decoder.decode(Address.self, from: ["street": 1])
        }
        guard case .typeMismatch(_, let mismatch) = wrongType else { Issue.record("\(wrongType)"); return }
        #expect(mismatch.codingPath.map(\.stringValue) == ["street"])
    }

    @Test func decodesDatesFromDatesStringsAndNumbers() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(try decoder.decode(Date.self, from: .date(date)) == date)
        #expect(try decoder.decode(Date.self, from: "2023-11-14T22:13:20Z") == date)
        #expect(try decoder.decode(Date.self, from: "2023-11-15T00:13:20+02:00") == date)
        #expect(try decoder.decode(Date.self, from: "2023-11-14T22:13:20.5Z") == date + 0.5)
        #expect(throws: DecodingError.self) { try decoder.decode(Date.self, from: "yesterday") }
        #expect(
            try ValueDecoder(dateDecodingStrategy: .secondsSince1970).decode(Date.self, from: 1_700_000_000) == date)
        #expect(
            try ValueDecoder(dateDecodingStrategy: .millisecondsSince1970).decode(Date.self, from: 1_700_000_000_000)
                == date)
    }

    @Test func decodesDataFromBytesBase64AndArrays() throws {
        #expect(try decoder.decode(Data.self, from: .bytes([1, 2, 3])) == Data([1, 2, 3]))
        #expect(try decoder.decode(Data.self, from: "AQID") == Data([1, 2, 3]))
        #expect(try decoder.decode(Data.self, from: [1, 2, 3]) == Data([1, 2, 3]))
        #expect(try decoder.decode([UInt8].self, from: .bytes([9])) == [9])
        #expect(throws: DecodingError.self) { try decoder.decode(Data.self, from: "not base64!") }
    }

    @Test func decodesURLsEnumsAndTaggedValues() throws {
        enum Kind: String, Codable { case a, b }
        #expect(try decoder.decode(URL.self, from: "https://example.com/x") == URL(string: "https://example.com/x"))
        #expect(try decoder.decode([Kind].self, from: ["a", "b"]) == [.a, .b])
        #expect(try decoder.decode(Int.self, from: .tagged("uid", 5)) == 5)
    }

    final class Base: Codable {
        var id: Int
        init(id: Int) { self.id = id }
    }

    final class Derived: Codable {
        var base: Base
        var extra: String
        enum CodingKeys: String, CodingKey { case extra }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            extra = try container.decode(String.self, forKey: .extra)
            base = try Base(from: container.superDecoder())
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(extra, forKey: .extra)
            try base.encode(to: container.superEncoder())
        }
        init(base: Base, extra: String) { self.base = base; self.extra = extra }
    }

    @Test func supportsSuperDecodersAndEncoders() throws {
        let value: Value = ["extra": "x", "super": ["id": 3]]
        let decoded = try decoder.decode(Derived.self, from: value)
        #expect(decoded.base.id == 3 && decoded.extra == "x")
        #expect(try ValueEncoder().encode(decoded) == value)
    }

    struct Nested: Decodable, Equatable {
        var a: Int
        var b: [Int]
        enum CodingKeys: String, CodingKey { case outer }
        enum Inner: String, CodingKey { case a, list }
        init(from decoder: any Decoder) throws {
            let outer = try decoder.container(keyedBy: CodingKeys.self)
            let inner = try outer.nestedContainer(keyedBy: Inner.self, forKey: .outer)
            a = try inner.decode(Int.self, forKey: .a)
            var list = try inner.nestedUnkeyedContainer(forKey: .list)
            var b: [Int] = []
            while !list.isAtEnd { b.append(try list.decode(Int.self)) }
            self.b = b
        }
    }

    @Test func nestedContainersReportFullPaths() throws {
        #expect(try decoder.decode(Nested.self, from: ["outer": ["a": 1, "list": [2, 3]]]).b == [2, 3])
        let error = try #require(throws: DecodingError.self) {
            try decoder.decode(Nested.self, from: ["outer": ["a": 1, "list": [2, "x"]]])
        }
        guard case .typeMismatch(_, let context) = error else { Issue.record("\(error)"); return }
        #expect(context.codingPath.map(\.stringValue) == ["outer", "list", "Index 1"])
    }
}
