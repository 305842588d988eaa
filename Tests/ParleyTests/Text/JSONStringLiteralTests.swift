import Foundation
import Parley
import Testing

@Suite struct JSONStringLiteralTests {
    @Test(arguments: ["", "plain text", "say \"hi\"", #"C:\path\"#, "line\nbreak\r\ttab", "\u{0}\u{1}\u{1F}\u{7F}",
                      "naïve café ☕️ 𝄞", "\u{8}\u{C}"])
    func quotesSoThatAJSONReaderGetsTheTextBack(text: String) throws {
        let literal = JSONStringLiteral.quoted(text)
        #expect(literal.hasPrefix("\"") && literal.hasSuffix("\""))
        #expect(!literal.utf8.contains { $0 < 0x20 }, "a control character is left raw in \(literal.debugDescription)")
        let read = try JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [String]
        #expect(read == [text])
    }

    @Test func escapesAsRFC8259SpellsIt() {
        #expect(JSONStringLiteral.quoted("a\"b\\c\nd\u{1}é") == #""a\"b\\c\nd\u0001é""#)
        var bytes = Array("[".utf8)
        JSONStringLiteral.append("x\ty", to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"["x\ty""#)
    }
}
