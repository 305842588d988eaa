import Foundation
import Parley
import ParleyJSON
import ParleyMessagePack
import ParleyTestKit
import Testing

/// A JSON body's objects are written to MessagePack straight from the parsed document (its
/// events); the bytes and errors must be those of the same value with its members built.
@Suite struct MessagePackFromJSONEventsTests {
    let msgpack = MessagePackFormat()
    let json = JSONFormat()

    /// Encodes `text`'s value as decoded (written from events) and resolved (the tree), and
    /// expects the same bytes, or the same error.
    func expectEventsMatchTree(_ text: [UInt8], _ comment: Comment? = nil) throws {
        let value = try json.decode(text)
        let streamed = Result { try msgpack.encode(value) }
        let tree = Result { try msgpack.encode(value.resolved()) }
        switch (streamed, tree) {
        case (.success(let a), .success(let b)): #expect(a == b, comment)
        case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)", comment)
        default: Issue.record("one path failed, the other did not: \(streamed) vs \(tree) \(comment ?? "")")
        }
    }

    @Test func anObjectIsWrittenFromItsDocument() throws {
        let value = try json.decode(Array(#"{"id": 7, "tags": ["a", {}], "n": null, "x": 1.5}"#.utf8))
        #expect(value.objectValue?.isDeferred == true)
        #expect(try msgpack.encode(value) == [
            0x84, 0xA2, 0x69, 0x64, 0x07, 0xA4, 0x74, 0x61, 0x67, 0x73, 0x92, 0xA1, 0x61, 0x80,
            0xA1, 0x6E, 0xC0, 0xA1, 0x78, 0xCB, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0,
        ])
    }

    /// Strings and keys of 31 bytes take a one-byte header (fixstr), of 32 the str 8 form.
    @Test func shortAndLongStringHeadersMatchTheTree() throws {
        let short = String(repeating: "s", count: 31), long = String(repeating: "l", count: 32)
        let text = Array(#"{"\#(short)": "\#(long)", "\#(long)": "\#(short)"}"#.utf8)
        try expectEventsMatchTree(text)
        let bytes = try msgpack.encode(try json.decode(text))
        #expect(Array(bytes.prefix(2)) == [0x82, 0xBF])
        #expect(Array(bytes[33..<35]) == [0xD9, 32])
    }

    @Test func randomDocumentsGiveTheTreesBytes() throws {
        var random = SplitMix64(seed: 33)
        for round in 0..<400 {
            let text = RandomJSON.objectDocument(using: &random)
            try expectEventsMatchTree(Array(text.utf8), "document \(round): \(text.prefix(200))")
        }
    }

    @Test func numbersMessagePackCannotHoldFailAsInTheTree() throws {
        let text = Array(#"{"a": 1, "b": [2, {"c": 1e400}]}"#.utf8)
        try expectEventsMatchTree(text)
        #expect(throws: FormatError.self) { try msgpack.encode(try json.decode(text)) }
    }

    @Test(arguments: Corpora.jsonDocuments())
    func corpusDocumentsGiveTheTreesBytes(_ name: String) throws {
        try expectEventsMatchTree(try Corpora.bytes(of: name), "\(name)")
    }
}
