import Parley
import ParleyTestKit
import Testing

@Suite struct TextFormatTests {
    let text = TextFormat()

    @Test func conformsToTheKit() {
        FormatConformance.expectConformance(
            of: text, options: .init(samples: ["plain", "", "ünïcödé 𝄞"], malformedInputs: [[0xC3], [0xED, 0xA0, 0x80]], checksDepth: false))
        FormatConformance.expectConformance(
            of: RawFormat(), options: .init(samples: [.bytes([0, 1, 255]), .bytes([])], checksDepth: false))
    }

    @Test(arguments: [
        ("iso-8859-1", [0x63, 0x61, 0x66, 0xE9] as [UInt8], "café"),
        ("windows-1252", [0x80, 0x93, 0x94], "€“”"),
        ("utf-16", [0xFE, 0xFF, 0x00, 0x41], "A"),
        ("utf-16", [0xFF, 0xFE, 0x41, 0x00], "A"),
        ("UTF-16LE", [0x41, 0x00, 0x34, 0xD8, 0x1E, 0xDD], "A𝄞"),
        ("utf-8", [0xEF, 0xBB, 0xBF, 0x41], "A"),
        ("us-ascii", [0x41], "A"),
    ])
    func honoursTheCharsetParameter(charset: String, bytes: [UInt8], expected: String) throws {
        #expect(try text.decode(bytes, as: MediaType(parsing: "text/plain; charset=\(charset)")) == .string(expected))
    }

    @Test func fallsBackToTheByteOrderMarkThenUTF8() throws {
        #expect(try text.decode([0xFF, 0xFE, 0x41, 0x00], as: .textPlain) == "A")
        #expect(try text.decode([0xC3, 0xA9], as: .textPlain) == "é")
    }

    @Test func invalidTextGivesTheOffset() {
        do {
            _ = try text.decode([0x41, 0x42, 0xC3, 0x28], as: .textPlain)
            Issue.record("expected an error")
        } catch let error as FormatError {
            #expect(error.code == .invalidText)
            #expect(error.location?.byteOffset == 2)
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: FormatError.self) { try text.decode([0x80], as: "text/plain; charset=us-ascii") }
        #expect(throws: FormatError.self) { try text.decode([0x41], as: "text/plain; charset=utf-16") }
        #expect(throws: FormatError.self) { try text.decode([0x81], as: "text/plain; charset=windows-1252") }
    }

    @Test func unknownCharsetsAreRefusedNotGuessed() {
        #expect {
            try text.decode([0x41], as: "text/plain; charset=klingon")
        } throws: { ($0 as? FormatError)?.code == .unsupportedMediaType }
    }

    @Test func encodesInTheRequestedCharset() throws {
        #expect(try text.encode("café", as: "text/plain; charset=iso-8859-1") == [0x63, 0x61, 0x66, 0xE9])
        #expect(try text.encode("€", as: "text/plain; charset=windows-1252") == [0x80])
        #expect(throws: FormatError.self) { try text.encode("€", as: "text/plain; charset=iso-8859-1") }
        #expect(try text.encode(42, as: .textPlain) == Array("42".utf8))
    }

    @Test func rejectsInvalidUTF8Forms() {
        for bad: [UInt8] in [[0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF8], [0xE2, 0x82]] {
            #expect(throws: FormatError.self) { try text.decode(bad, as: .textPlain) }
        }
    }
}
