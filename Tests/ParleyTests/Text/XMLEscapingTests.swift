import Parley
import Testing

@Suite struct XMLEscapingTests {
    @Test func textEscapesMarkupAndCarriageReturnOnly() throws {
        #expect(try escaped("a < b && c > d\r\n\t\"q\"", for: .text, format: "xml")
            == "a &lt; b &amp;&amp; c &gt; d&#13;\n\t\"q\"")
    }

    @Test func attributesAlsoEscapeQuotesTabsAndLineFeeds() throws {
        #expect(try escaped("say \"hi\"\tthen\nbye & <go>", for: .attribute, format: "xml")
            == "say &quot;hi&quot;&#9;then&#10;bye &amp; &lt;go&gt;")
    }

    @Test func plainAndNonASCIITextIsCopiedUnchanged() throws {
        for text in ["", "plain", "ünïcödé 𝄞", "\u{EFFF}\u{FFFD}", "Ω≈ç√"] {
            #expect(try escaped(text, for: .text, format: "xml") == text)
            #expect(try escaped(text, for: .attribute, format: "xml") == text)
        }
    }

    @Test(arguments: ["\u{0}", "a\u{1}b", "\u{1F}", "x\u{FFFE}", "\u{FFFF}y"])
    func charactersOutsideXMLFailNamingTheCharacterAndFormat(text: String) {
        #expect { try escaped(text, for: .text, format: "plist") } throws: { error in
            guard let error = error as? FormatError else { return false }
            let bad = text.unicodeScalars.first { !XMLEscaping.isXMLCharacter($0) }!
            return error.code == .unsupportedValue && error.format == "plist"
                && error.message.contains("U+\(String(bad.value, radix: 16, uppercase: true))")
        }
    }

    @Test func appendingKeepsWhatTheBytesHeld() throws {
        var bytes = Array("<a>".utf8)
        try XMLEscaping.append("x&y", for: .text, to: &bytes, format: "xml")
        #expect(String(decoding: bytes, as: UTF8.self) == "<a>x&amp;y")
    }

    @Test func reportsDropCharactersOutsideXML() {
        #expect(XMLEscaping.escapedDroppingUnrepresentable("a\u{0}b\u{FFFF}c\u{1B}[0m", for: .text) == "abc[0m")
        #expect(XMLEscaping.escapedDroppingUnrepresentable("\"\u{7}\"", for: .attribute) == "&quot;&quot;")
    }

    @Test func theCharProductionBoundaries() {
        let allowed: [UInt32] = [0x9, 0xA, 0xD, 0x20, 0xD7FF, 0xE000, 0xFFFD, 0x10000, 0x10FFFF]
        let refused: [UInt32] = [0x0, 0x8, 0xB, 0xC, 0x1F, 0xFFFE, 0xFFFF]
        for value in allowed { #expect(XMLEscaping.isXMLCharacter(Unicode.Scalar(value)!)) }
        for value in refused { #expect(!XMLEscaping.isXMLCharacter(Unicode.Scalar(value)!)) }
    }
}

/// `text` as `XMLEscaping.append` writes it for `context`.
private func escaped(_ text: String, for context: XMLEscaping.Context, format: String) throws(FormatError) -> String {
    var bytes: [UInt8] = []
    try XMLEscaping.append(text, for: context, to: &bytes, format: format)
    return String(decoding: bytes, as: UTF8.self)
}
