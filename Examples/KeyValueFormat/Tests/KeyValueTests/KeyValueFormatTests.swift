import KeyValue
import Parley
import ParleyJSON
import ParleyTestKit
import Testing

/// The format on its own: the grammar, its errors, and ParleyTestKit's conformance checks.
@Suite struct KeyValueFormatTests {
    let kv = KeyValueFormat()

    @Test func conformsToTheKit() {
        FormatConformance.expectConformance(of: kv, options: .init(
            samples: [
                ["name": "Ada", "age": "36", "empty": ""],
                ["unicode": "héllo wörld ✓ 𝄞", "multi": "line 1\nline 2\r\n", "tab\tkey": "a\\b", "a=b": "c=d",
                 "#tag": "#x"],
                [:],
            ],
            malformedInputs: [Array("no equals sign".utf8), Array("=empty key".utf8), Array("k=bad \\q escape".utf8)],
            otherFormats: [JSONFormat()],
            checksDepth: false))
    }

    @Test func decodesLinesCommentsAndEscapes() throws {
        let body = "# people\r\nname=Ada Lovelace\r\n\r\nnote=first\\nsecond\nformula=a\\=b=c\nname=Again\n"
        #expect(try kv.decode(Array(body.utf8)) == .object([
            "name": "Ada Lovelace", "note": "first\nsecond", "formula": "a=b=c", "name": "Again",
        ]))
    }

    @Test func errorsSayWhichLineAndColumn() throws {
        do {
            _ = try kv.decode(Array("a=1\n# ok\nb=2\\x\n".utf8))
            Issue.record("expected an error")
        } catch let error as FormatError {
            #expect(error.code == .malformed)
            #expect(error.location == FormatError.Location(line: 3, column: 5))
        }
        #expect { try kv.decode([0x61, 0x3D, 0xFF]) } throws: { ($0 as? FormatError)?.code == .invalidText }
        #expect { try kv.encode(["nested": ["a": 1]]) } throws: { ($0 as? FormatError)?.code == .unsupportedValue }
        #expect { try kv.encode([1, 2]) } throws: { ($0 as? FormatError)?.code == .unsupportedValue }
    }

    @Test func writesScalarsAsText() throws {
        let value: Value = ["n": 1, "x": 2.5, "ok": true, "none": nil, "big": .number("123456789012345678901234567890")]
        #expect(String(decoding: try kv.encode(value), as: UTF8.self)
                == "n=1\nx=2.5\nok=true\nnone=\nbig=123456789012345678901234567890\n")
    }
}
