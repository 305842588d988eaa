import Parley
import ParleyJSON
import ParleyTestKit
import ParleyYAML
import Testing

/// A JSON body's objects are written to YAML straight from the parsed document (its events);
/// the text and errors must be those of the same value with its members built.
@Suite struct YAMLFromJSONEventsTests {
    let yaml = YAMLFormat()
    let json = JSONFormat()

    /// Encodes `text`'s value as decoded (written from events) and resolved (the tree), and
    /// expects the same text, or the same error.
    func expectEventsMatchTree(_ text: [UInt8], _ comment: Comment? = nil) throws {
        let value = try json.decode(text)
        let streamed = Result { try yaml.encode(value) }
        let tree = Result { try yaml.encode(value.resolved()) }
        switch (streamed, tree) {
        case (.success(let a), .success(let b)):
            #expect(String(decoding: a, as: UTF8.self) == String(decoding: b, as: UTF8.self), comment)
        case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)", comment)
        default: Issue.record("one path failed, the other did not: \(streamed) vs \(tree) \(comment ?? "")")
        }
    }

    @Test func anObjectIsWrittenFromItsDocument() throws {
        let text = #"{"id": 7, "tags": ["a", {}, [], [1, [2]], {"k": "yes"}], "n": null, "zip": "00123", "e": {}}"#
        let value = try json.decode(Array(text.utf8))
        #expect(value.objectValue?.isDeferred == true)
        #expect(String(decoding: try yaml.encode(value), as: UTF8.self) == """
            id: 7
            tags:
              - a
              - {}
              - []
              - - 1
                - - 2
              - k: "yes"
            "n": null
            zip: "00123"
            e: {}

            """)
        // The text reads back as the value.
        #expect(try yaml.decode(try yaml.encode(value)) == value.resolved())
    }

    @Test func randomDocumentsGiveTheTreesText() throws {
        var random = SplitMix64(seed: 34)
        for round in 0..<400 {
            let text = RandomJSON.objectDocument(using: &random)
            try expectEventsMatchTree(Array(text.utf8), "document \(round): \(text.prefix(200))")
        }
    }

    /// Indents wider than the writer's run of spaces (64) are written in several parts.
    @Test func indentsWiderThanTheRunOfSpacesReadBack() throws {
        let text = String(repeating: #"{"k":["#, count: 40) + "1" + String(repeating: "]}", count: 40)
        try expectEventsMatchTree(Array(text.utf8))
        let value = try json.decode(Array(text.utf8))
        let written = try yaml.encode(value)
        #expect(try yaml.decode(written) == value.resolved())
        let last = String(decoding: written, as: UTF8.self).split(separator: "\n").last ?? ""
        #expect(last.hasSuffix("- 1") && last.prefix(while: { $0 == " " }).count > 64)
    }

    /// The output grows past its first kilobyte many times over, by short runs (keys, indents)
    /// and long ones (strings), and a long key turned explicit after growing moves what follows it.
    @Test func outputGrowingByShortAndLongRunsReadsBack() throws {
        let long = String(repeating: "k", count: 1_200)
        var members: [String] = []
        for index in 0..<300 {
            let text = String(repeating: "value \(index) ", count: index % 7)
            members.append(#""key\#(index)": {"s": "\#(text)", "n": \#(index), "f": \#(Double(index) / 8)}"#)
        }
        let text = "{" + members.joined(separator: ", ") + #", "\#(long)": [1, "two"]}"#
        try expectEventsMatchTree(Array(text.utf8))
        let written = try yaml.encode(try json.decode(Array(text.utf8)))
        #expect(written.count > 8 * 1_024)
        #expect(try yaml.decode(written) == (try json.decode(Array(text.utf8))).resolved())
    }

    @Test func aRepeatedKeyFailsWithTheTreesError() throws {
        // The tree checks the outer object's keys before the inner one's; events meet "x" first.
        let text = Array(#"{"a": {"x": 1, "x": 2}, "a": 3}"#.utf8)
        try expectEventsMatchTree(text)
        let error = #expect(throws: FormatError.self) { try yaml.encode(try json.decode(text)) }
        #expect(error?.message.contains("'a' appears twice") == true)
        // More than 16 members are checked through a set.
        let many = "{" + (0..<20).map { "\"k\($0 % 19)\": \($0)" }.joined(separator: ",") + "}"
        try expectEventsMatchTree(Array(many.utf8))
        #expect(throws: FormatError.self) { try yaml.encode(try json.decode(Array(many.utf8))) }
    }

    /// The mappings of an array of records repeat one another's keys: a key equal to the one at
    /// its place in the last mapping closed at its depth is written as that one was. The text
    /// must still be the tree's wherever the mappings part (another key, more or fewer keys, a
    /// key written quoted, or long enough to be explicit), and a key repeated within a mapping
    /// must still fail after the keys that matched.
    @Test func recordsThatRepeatKeysGiveTheTreesText() throws {
        let long = String(repeating: "k", count: 1_200)
        let records = [
            #"{"id": 1, "name": "a", "yes": true, "": 0, "address": {"city": "x", "zip": "001"}}"#,
            #"{"id": 2, "name": "b", "yes": false, "": 1, "address": {"city": "y", "zip": "002"}}"#,
            #"{"id": 3, "nama": "c", "address": {"city": "z"}}"#,
            #"{"id": 4, "name": "d", "extra": [{"id": 5}, {"id": 6, "name": "e"}], "more": 1}"#,
            #"{"id": 7}"#,
            #"{"yes": 1, "\#(long)": 2}"#,
            #"{"\"yes\"": 1, "\#(long)": 3}"#,
        ]
        let text = Array(("[" + records.joined(separator: ",") + "]").utf8)
        try expectEventsMatchTree(text)
        #expect(try yaml.decode(try yaml.encode(try json.decode(text))) == (try json.decode(text)).resolved())
        let repeats = [("id", #"{"id": 8, "name": "f", "id": 9}"#),
                       ("name", #"{"id": 8, "name": "f", "yes": 1, "name": 2}"#),
                       ("id", #"{"id": 8, "name": "f", "yes": 1, "": {"city": "q", "a": 1}, "id": 2}"#),
                       ("id", #"{"id": 8}, {"id": 9, "name": "g", "id": 10}"#)]
        for (key, repeated) in repeats {
            let text = Array(("[" + records[0] + "," + repeated + "]").utf8)
            try expectEventsMatchTree(text)
            let error = #expect(throws: FormatError.self) { try yaml.encode(try json.decode(text)) }
            #expect(error?.message.contains("'\(key)' appears twice") == true)
        }
    }

    /// Mappings of more than 16 members nested in one another each check their own keys: an
    /// inner one's keys do not count against the outer one's, and the outer one's still do after it.
    @Test func nestedLargeMappingsCheckTheirOwnKeys() throws {
        func object(_ keys: [String], inner: String? = nil) -> String {
            let members = keys.enumerated().map { "\"\($1)\": \($0 == 3 ? inner ?? "0" : "\($0)")" }
            return "{" + members.joined(separator: ",") + "}"
        }
        let keys = (0..<20).map { "k\($0)" }
        let inner = object(keys, inner: object(keys))
        let distinct = object(keys, inner: inner)
        try expectEventsMatchTree(Array(distinct.utf8))
        #expect(try yaml.decode(try yaml.encode(try json.decode(Array(distinct.utf8))))
            == (try json.decode(Array(distinct.utf8))).resolved())
        // The outer mapping repeats its first key after the nested ones.
        let repeated = object(keys + ["k0"], inner: inner)
        try expectEventsMatchTree(Array(repeated.utf8))
        let error = #expect(throws: FormatError.self) { try yaml.encode(try json.decode(Array(repeated.utf8))) }
        #expect(error?.message.contains("'k0' appears twice") == true)
    }

    @Test(arguments: Corpora.jsonDocuments())
    func corpusDocumentsGiveTheTreesText(_ name: String) throws {
        try expectEventsMatchTree(try Corpora.bytes(of: name), "\(name)")
    }
}
