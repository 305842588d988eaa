import Foundation
import Parley
import ParleyJSON
import ParleyTestKit
import Testing

/// `JSONFormat.decode(_:from:)` reads Codable types straight from the bytes (through a tape).
/// These tests hold it to its promise: the same result, and the same error, as decoding the
/// body's `Value` with `ValueDecoder`.
@Suite struct JSONDirectCodableTests {
    let json = JSONFormat()

    /// Any JSON, read only through Codable containers, so it exercises every container call.
    indirect enum AnyJSON: Decodable, Equatable {
        case null, bool(Bool), integer(Int64), unsigned(UInt64), double(Double), string(String)
        /// Members in the order of `allKeys`, each with the value `decode(_:forKey:)` gives.
        case array([AnyJSON]), object([Member])
        /// A value no Codable type reads (`1e400`): the error it gave.
        case undecodable(String)

        struct Member: Equatable {
            var key: String
            var value: AnyJSON
        }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            if let keyed = try? decoder.container(keyedBy: Key.self) {
                var members: [Member] = []
                for key in keyed.allKeys {
                    #expect(keyed.contains(key))
                    members.append(Member(key: key.stringValue, value: try keyed.decode(AnyJSON.self, forKey: key)))
                }
                self = .object(members)
                return
            }
            if var unkeyed = try? decoder.unkeyedContainer() {
                var elements: [AnyJSON] = []
                while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(AnyJSON.self)) }
                #expect(elements.count == unkeyed.count)
                self = .array(elements)
                return
            }
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { self = .null }
            else if let b = try? single.decode(Bool.self) { self = .bool(b) }
            else if let i = try? single.decode(Int64.self) { self = .integer(i) }
            else if let u = try? single.decode(UInt64.self) { self = .unsigned(u) }
            else if let s = try? single.decode(String.self) { self = .string(s) }
            else {
                do { self = .double(try single.decode(Double.self)) } catch { self = .undecodable("\(error)") }
            }
        }
    }

    /// Decodes `T` both ways; returns both outcomes as text (the value or the error).
    func bothWays<T: Decodable>(_ type: T.Type, _ text: String, decoder: ValueDecoder = ValueDecoder(),
                                json: JSONFormat = JSONFormat()) -> (direct: String, tree: String) {
        bothWays(type, Array(text.utf8), decoder: decoder, json: json)
    }

    func bothWays<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], decoder: ValueDecoder = ValueDecoder(),
                                json: JSONFormat = JSONFormat()) -> (direct: String, tree: String) {
        let direct: String
        do { direct = "\(try json.decode(T.self, from: bytes, decoder: decoder))" } catch { direct = "error: \(error)" }
        let tree: String
        do { tree = "\(try decoder.decode(T.self, from: try json.decode(bytes)))" } catch { tree = "error: \(error)" }
        return (direct, tree)
    }

    // MARK: Whole documents

    @Test func everyValidSuiteDocumentReadsTheSameBothWays() throws {
        guard let directory = JSONTestSuiteTests.directory else {
            print(Corpora.missingMessage("json"))
            return
        }
        let files = JSONTestSuiteTests.files("y_") + JSONTestSuiteTests.files("i_")
        #expect(!files.isEmpty)
        for name in files {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
            let (direct, tree) = bothWays(AnyJSON.self, bytes)
            #expect(direct == tree, "\(name)")
        }
    }

    @Test func everyInvalidSuiteDocumentFailsWithTheTreeDecodersError() throws {
        guard let directory = JSONTestSuiteTests.directory else {
            print(Corpora.missingMessage("json"))
            return
        }
        for name in JSONTestSuiteTests.files("n_") {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
            let (direct, tree) = bothWays(AnyJSON.self, bytes)
            #expect(direct.hasPrefix("error: "), "\(name)")
            #expect(direct == tree, "\(name)")
        }
    }

    @Test func handWrittenDocumentsReadTheSameBothWays() {
        let documents = [
            #"{"a": [1, -2, 3.5, "x\"y\u00e9\ud83d\ude00", true, false, null, {}], "b": {"c": [[], [{}]]}}"#,
            #"[12345678901234567890, -9223372036854775808, 18446744073709551615, 1e400, -0, 0.1, 1E2]"#,
            #"{"dup": 1, "other": 2, "dup": 3}"#,
            #"{"\u0061": "escaped key", "b": "\n"}"#,
            #""just a string""#, "42", "null", " [ ] ",
        ]
        for document in documents {
            let (direct, tree) = bothWays(AnyJSON.self, document)
            #expect(direct == tree, "\(document)")
            #expect(!direct.hasPrefix("error"), "\(document)")
        }
    }

    // MARK: Keyed lookups

    struct Pair: Decodable, Equatable {
        var a: Int
        var b: String?
    }

    @Test func theLastOfRepeatedKeysWinsAndKeysMayComeInAnyOrder() throws {
        #expect(try json.decode(Pair.self, from: Array(#"{"b": "x", "a": 1, "a": 2}"#.utf8)) == Pair(a: 2, b: "x"))
        #expect(try json.decode(Pair.self, from: Array(#"{"a": 1}"#.utf8)) == Pair(a: 1, b: nil))
        #expect(
            try json.decode(Pair.self, from: Array(#"{"\u0061": 5, "\u0062": "\u00e9"}"#.utf8)) == Pair(a: 5, b: "é"))
    }

    /// Twenty members, so the keyed container indexes them; every key also repeats.
    struct Wide: Decodable, Equatable {
        var k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14, k15, k16, k17, k18, k19: Int
    }

    @Test func everyKeyOfASmallOrLargeObjectIsFoundWhateverItsOrderAndRepeats() throws {
        for count in [3, 9, 16, 17, 20] {
            var generator = SystemRandomNumberGenerator()
            let members = ((0..<count).map { ("k\($0)", $0) } + (0..<count).map { ("k\($0)", $0 * 10) }).shuffled(
                using: &generator)
            let text = "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
            let lastWins = Dictionary(members, uniquingKeysWith: { $1 })
            #expect(try json.decode([String: Int].self, from: Array(text.utf8)) == lastWins)
            #expect(try ValueDecoder().decode([String: Int].self, from: try json.decode(Array(text.utf8))) == lastWins)
            if count == 20 {
                let (direct, tree) = bothWays(Wide.self, text)
                #expect(direct == tree)
                #expect(try json.decode(Wide.self, from: Array(text.utf8)).k19 == lastWins["k19"])
            }
        }
        let wide = "{" + (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ",") + "}"
        #expect(try json.decode(Wide.self, from: Array(wide.utf8)).k19 == 19)
    }

    /// Keys sharing a length and first, middle and last bytes share the container's hash, so
    /// they take the full search; the answers must not change.
    @Test func keysThatShareAHashAreStillTellApart() throws {
        struct Similar: Decodable, Equatable { var abxa: Int; var acxa: Int; var adxa: Int; var aexa: Int }
        let text = #"{"aexa": 4, "abxa": 1, "acxa": 2, "adxa": 3, "abxa": 10}"#
        #expect(try json.decode(Similar.self, from: Array(text.utf8)) == Similar(abxa: 10, acxa: 2, adxa: 3, aexa: 4))
        let (direct, tree) = bothWays(Similar.self, #"{"abxa": 1, "acxa": 2, "adxa": 3}"#)
        #expect(direct == tree)
        #expect(direct.contains("keyNotFound"))
    }

    // MARK: Errors and conversions

    struct Record: Decodable {
        struct Inner: Decodable { var values: [Int8]; var when: Date?; var link: URL? }
        var id: UInt64
        var name: String
        var inner: [Inner]
        var blob: Data?
    }

    @Test func conversionsAndErrorsMatchTheTreeDecoder() {
        let documents = [
            #"{"id": 18446744073709551615, "name": "n", "inner": [{"values": [1, 2.0, -128]}], "blob": "AQID"}"#,
            #"{"id": 1, "name": "n", "inner": [{"values": [1, 128]}]}"#,
            #"{"id": -1, "name": "n", "inner": []}"#,
            #"{"id": 1, "name": 5, "inner": []}"#,
            #"{"id": 1, "name": null, "inner": []}"#,
            #"{"id": 1, "inner": []}"#,
            #"{"id": 1, "name": "n", "inner": [{"values": [1]}, {"values": {}}]}"#,
            #"{"id": 1, "name": "n", "inner": [{"values": [], "when": "2024-05-06T07:08:09.250Z", "link": "#
                + #""https://x.example/a"}]}"#,
            #"{"id": 1, "name": "n", "inner": [{"values": [], "when": "yesterday"}]}"#,
            #"{"id": 1, "name": "n", "inner": [], "blob": [1, 2, 300]}"#,
            #"{"id": 1, "name": "n", "inner": [], "blob": "not base64!"}"#,
            #"{"id": 1.5, "name": "n", "inner": []}"#,
            #"{"id": 1e400, "name": "n", "inner": []}"#,
            #"[]"#,
            #"{"id": 1, "name": "n", "inner": {}}"#,
            #"{"id": 1, "name": "n", "inner": null}"#,
            #"{"id": 1, "name": "n", "inner": [null]}"#,
            #"{"id": 1, "name": "n", "inner": [{"values": [1, "2"]}]}"#,
        ]
        for document in documents {
            let (direct, tree) = bothWays(Record.self, document)
            #expect(direct == tree, "\(document)")
        }
    }

    @Test func arraysOfRecordsMatchTheTreeDecoder() {
        for document in [
            #"[{"a": 1}, {"a": 2, "b": "x"}]"#, #"[{"a": 1}, {"b": "x"}]"#, #"{"a": 1}"#, #"[[{"a": 1}], []]"#, "[null]"
        ] {
            let (direct, tree) = bothWays([Pair].self, document)
            #expect(direct == tree, "\(document)")
            let (nestedDirect, nestedTree) = bothWays([[Pair]].self, document)
            #expect(nestedDirect == nestedTree, "\(document)")
        }
    }

    @Test func dateStrategiesMatchTheTreeDecoder() {
        for strategy: ValueDecoder.DateDecodingStrategy in [
            .iso8601, .secondsSince1970, .millisecondsSince1970, .deferredToDate
        ] {
            for document in [#"[1700000000, 1.5]"#, #"["2024-05-06T07:08:09Z"]"#, #"[null]"#, #"[[]]"#] {
                let (direct, tree) = bothWays(
                    [Date].self, document, decoder: ValueDecoder(dateDecodingStrategy: strategy))
                #expect(direct == tree, "\(strategy) \(document)")
            }
        }
    }

    /// A type that uses every container call, including nested containers and super decoders.
    struct Everything: Decodable, CustomStringConvertible {
        var description: String

        enum Keys: String, CodingKey { case nested, list, single, missing, `super` }

        init(from decoder: any Decoder) throws {
            let keyed = try decoder.container(keyedBy: Keys.self)
            let nested = try keyed.nestedContainer(keyedBy: Keys.self, forKey: .nested)
            var list = try keyed.nestedUnkeyedContainer(forKey: .list)
            var parts = [String]()
            parts.append("\(try nested.decode([Float].self, forKey: .list))")
            parts.append("\(try list.decodeNil())")
            parts.append("\(try list.decode(Int16.self))")
            var inner = try list.nestedUnkeyedContainer()
            parts.append("\(try inner.decode(String.self)) \(inner.isAtEnd)")
            let innerKeyed = try list.nestedContainer(keyedBy: Keys.self)
            parts.append("\(try innerKeyed.decodeNil(forKey: .single)) \(innerKeyed.codingPath.map(\.stringValue))")
            let superDecoder = try list.superDecoder()
            parts.append("\(try superDecoder.singleValueContainer().decode(Bool.self))")
            parts.append("\(list.isAtEnd) \(list.currentIndex) \(String(describing: list.count))")
            do { _ = try list.decode(Int.self) } catch { parts.append("\(error)") }
            let missing = try keyed.superDecoder(forKey: .missing)
            parts.append("\(try missing.singleValueContainer().decodeNil())")
            parts.append("\(try keyed.superDecoder().singleValueContainer().decode(Double.self))")
            parts.append("\(try keyed.decode(UInt8.self, forKey: .single))")
            do { _ = try nested.decode(String.self, forKey: .missing) } catch { parts.append("\(error)") }
            do { _ = try nested.nestedUnkeyedContainer(forKey: .single) } catch { parts.append("\(error)") }
            description = parts.joined(separator: " | ")
        }
    }

    @Test func everyContainerCallMatchesTheTreeDecoder() {
        let document =
            #"{"nested": {"list": [1.5, 2], "single": 3}, "list": [null, 7, ["s"], {"single": null}, true], "single": "#
                + #"255, "super": 0.25}"#
        let (direct, tree) = bothWays(Everything.self, document)
        #expect(direct == tree)
        #expect(!direct.hasPrefix("error"))
    }

    // MARK: Options, encodings and the registry

    @Test func optionsAndTextEncodingsAreHonoured() throws {
        let removing = JSONFormat(options: .init(removesNullValues: true))
        #expect(try removing.decode([String: Int?].self, from: Array(#"{"a": null, "b": 1}"#.utf8)) == ["b": 1])
        let blank = JSONFormat(options: .init(blankBody: .value(.null)))
        #expect(try blank.decode(Int?.self, from: Array("  \n".utf8)) == nil)
        #expect(throws: FormatError.self) { try JSONFormat().decode(Int?.self, from: Array("  \n".utf8)) }
        let noFragments = JSONFormat(options: .init(allowsFragments: false))
        #expect(throws: FormatError.self) { try noFragments.decode(Int.self, from: Array("1".utf8)) }
        let utf16: [UInt8] =
            [0xFF, 0xFE] + Array(#"{"a": 1, "b": "é"}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(try json.decode(Pair.self, from: utf16) == Pair(a: 1, b: "é"))
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"a": 2, "b" "x"}"#.utf8)
        let (direct, tree) = bothWays(Pair.self, bom)
        #expect(direct == tree)
        #expect(direct.contains("byte 16"))
    }

    @Test func limitsApplyAsToTheTree() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let (direct, tree) = bothWays(AnyJSON.self, deep)
        #expect(direct == tree)
        #expect(direct.contains("maxDepth"))
        var limits = DecodingLimits.standard
        limits.maxNodes = 3
        #expect(throws: FormatError.self) { try json.decode([Int].self, from: Array("[1, 2, 3]".utf8), limits: limits) }
        #expect(try json.decode([Int].self, from: Array("[1, 2]".utf8), limits: limits) == [1, 2])
    }

    @Test func registryAndResponseSerializerReadJSONDirectly() throws {
        let registry = Registry(formats: [JSONFormat()])
        let body = Array(#"{"a": 1, "a": 4, "b": null}"#.utf8)
        #expect(try registry.decode(Pair.self, from: body, contentType: "application/json") == Pair(a: 4, b: nil))
        do {
            _ = try registry.decode(Pair.self, from: Array(#"{"b": "x"}"#.utf8), contentType: "application/json")
            Issue.record("expected an error")
        } catch let error as ParleyError {
            #expect(error.code == .decodingFailed)
            #expect(error.message.contains("No value associated with key"))
        }
        do {
            _ = try registry.decode(Pair.self, from: Array(#"{"a": }"#.utf8), contentType: "application/json")
            Issue.record("expected an error")
        } catch let error as ParleyError {
            let tree = #expect(throws: ParleyError.self) {
                try registry.decode(Array(#"{"a": }"#.utf8), contentType: "application/json")
            }
            #expect(error.code == tree?.code)
            #expect(error.message == tree?.message)
        }
    }
}
