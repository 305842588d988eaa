import Parley
import ParleyHTTP
import Testing

@Suite("Converting charsets to UTF-8")
struct CharsetConverterTests {
    let converter = SystemCharsetConverter()

    @Test("The core's charsets and iconv's convert; names are case-insensitive")
    func converts() throws {
        #expect(try converter.utf8(from: [0x63, 0x61, 0x66, 0xE9], charset: "ISO-8859-1", maximumBytes: 100)
                == Array("café".utf8))
        #expect(try converter.utf8(from: [0x82, 0xB1, 0x82, 0xF1], charset: "shift_jis", maximumBytes: 100)
                == Array("こん".utf8))
        #expect(try converter.utf8(from: [0xC7], charset: "windows-1256", maximumBytes: 100) == Array("\u{0627}".utf8))
    }

    @Test("An unknown charset and invalid bytes are told apart, with the offset")
    func failures() {
        #expect(throws: CharsetConversionError.unknownCharset("x-no-such")) {
            try converter.utf8(from: Array("hi".utf8), charset: "x-no-such", maximumBytes: 100)
        }
        #expect(throws: CharsetConversionError.invalidBytes(charset: "shift_jis", offset: 1)) {
            try converter.utf8(from: [0x41, 0x82], charset: "shift_jis", maximumBytes: 100)
        }
        #expect(throws: CharsetConversionError.invalidBytes(charset: "us-ascii", offset: 2)) {
            try converter.utf8(from: [0x41, 0x42, 0x82], charset: "us-ascii", maximumBytes: 100)
        }
    }

    @Test("Output that expands past iconv's buffer is not mistaken for invalid input (TSCII, 20 bytes of 0x82)")
    func expansionIsNotInvalidInput() throws {
        // Each 0x82 expands to several code points: more than the input's size in UTF-8.
        let converted = try converter.utf8(from: [UInt8](repeating: 0x82, count: 20), charset: "tscii",
                                           maximumBytes: 1 << 20)
        #expect(converted.count > 20)
        #expect(String(validating: converted, as: UTF8.self) != nil)
        // Far larger than one 64 KiB chunk of output.
        let large = try converter.utf8(from: [UInt8](repeating: 0x82, count: 100_000), charset: "tscii",
                                       maximumBytes: 64 << 20)
        #expect(large.count == converted.count * 5_000)
    }

    @Test("A stateful charset is flushed at the end (ISO-2022-JP returns to ASCII)")
    func statefulFlush() throws {
        // ESC $ B, the JIS X 0208 code of "あ", ESC ( B.
        let bytes: [UInt8] = [0x1B, 0x24, 0x42, 0x24, 0x22, 0x1B, 0x28, 0x42, 0x41]
        #expect(try converter.utf8(from: bytes, charset: "ISO-2022-JP", maximumBytes: 100) == Array("あA".utf8))
    }

    @Test("The output limit is checked as the text grows, never after a body-sized buffer")
    func limit() {
        #expect(throws: CharsetConversionError.limitExceeded(maximum: 1_000)) {
            try converter.utf8(from: [UInt8](repeating: 0x41, count: 5_000), charset: "shift_jis", maximumBytes: 1_000)
        }
        #expect(throws: CharsetConversionError.limitExceeded(maximum: 3)) {
            try converter.utf8(from: Array("abcd".utf8), charset: "latin1", maximumBytes: 3)
        }
    }
}
