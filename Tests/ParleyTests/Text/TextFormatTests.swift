import Parley
import ParleyTestKit
import Testing

@Suite struct TextFormatTests {
    let text = TextFormat()

    @Test func conformsToTheKit() {
        FormatConformance.expectConformance(
            of: text,
            options: .init(
                samples: ["plain", "", "ünïcödé 𝄞"], malformedInputs: [[0xC3], [0xED, 0xA0, 0x80]], checksDepth: false))
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
        for bad: [UInt8] in [
            [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF8], [0xE2, 0x82]
        ] {
            #expect(throws: FormatError.self) { try text.decode(bad, as: .textPlain) }
        }
    }

    @Test func transcodesEveryCharsetExactly() throws {
        // Every Latin-1 byte, and a sample of every UTF-16 and UTF-32 form against Swift's own encoders.
        let latin1 = (0...255).map { UInt8($0) }
        let expectedLatin1 = String(String.UnicodeScalarView(latin1.map { Unicode.Scalar($0) }))
        #expect(try Charset.latin1.decode(latin1.withUnsafeBytes { $0 }) == expectedLatin1)
        let sample = "ASCII é € 中文 𝄞 😀 \u{10FFFF}\u{FFFD}"
        let big = sample.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let little = sample.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let utf32BE = sample.unicodeScalars.flatMap { s in
            [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: s.value >> $0) }
        }
        let utf32LE = sample.unicodeScalars.flatMap { s in
            [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: s.value >> $0) }
        }
        #expect(try big.withUnsafeBytes { try Charset.utf16BigEndian.decode($0) } == sample)
        #expect(try little.withUnsafeBytes { try Charset.utf16LittleEndian.decode($0) } == sample)
        #expect(try utf32BE.withUnsafeBytes { try Charset(name: "utf-32be")!.decode($0) } == sample)
        #expect(try utf32LE.withUnsafeBytes { try Charset(name: "utf-32le")!.decode($0) } == sample)
    }

    @Test func loneSurrogatesAreInvalidAtTheirOffset() {
        func offset(_ bytes: [UInt8], _ charset: Charset) -> Int? {
            do {
                _ = try bytes.withUnsafeBytes { try charset.decode($0) }
                return nil
            } catch {
                return (error as? FormatError)?.location?.byteOffset
            }
        }
        #expect(offset([0x00, 0x41, 0xD8, 0x34, 0x00, 0x41], .utf16BigEndian) == 2)  // high surrogate, then no low one
        #expect(offset([0x00, 0x41, 0xDD, 0x1E], .utf16BigEndian) == 2)  // low surrogate alone
        #expect(offset([0x00, 0x41, 0xD8, 0x34], .utf16BigEndian) == 2)  // high surrogate at the end
        #expect(offset([0x00, 0x00, 0xD8, 0x00], Charset(name: "utf-32be")!) == 0)  // a surrogate as a UTF-32 value
        #expect(offset([0x00, 0x11, 0x00, 0x00], Charset(name: "utf-32be")!) == 0)  // beyond U+10FFFF
    }
}
