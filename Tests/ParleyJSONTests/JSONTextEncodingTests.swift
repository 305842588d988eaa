import Parley
import ParleyJSON
import Testing

@Suite struct JSONTextEncodingTests {
    let json = JSONFormat()

    func utf16(_ text: String, littleEndian: Bool, mark: Bool) -> [UInt8] {
        var out: [UInt8] = mark ? (littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]) : []
        for unit in text.utf16 {
            out += littleEndian ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        return out
    }

    func utf32(_ text: String, littleEndian: Bool) -> [UInt8] {
        text.unicodeScalars.flatMap { scalar -> [UInt8] in
            let v = scalar.value
            let big = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
            return littleEndian ? big.reversed() : big
        }
    }

    @Test(arguments: [true, false])
    func transcodesUTF16WithAndWithoutAMark(littleEndian: Bool) throws {
        for mark in [true, false] {
            #expect(try json.decode(utf16(#"{"é": "𝄞"}"#, littleEndian: littleEndian, mark: mark)) == ["é": "𝄞"])
        }
        #expect(try json.decode(utf16("7", littleEndian: littleEndian, mark: false)) == 7)
    }

    @Test(arguments: [true, false])
    func transcodesUTF32(littleEndian: Bool) throws {
        #expect(try json.decode(utf32(#"["ü"]"#, littleEndian: littleEndian)) == ["ü"])
    }

    @Test func skipsAUTF8ByteOrderMarkAndCountsOffsetsFromTheBodyStart() throws {
        #expect(try json.decode([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
        let error = try #require(throws: FormatError.self) { try json.decode([0xEF, 0xBB, 0xBF] + Array("[1,]".utf8)) }
        #expect(error.location?.byteOffset == 6)
    }

    @Test func honoursTheCharsetParameter() throws {
        #expect(
            try json.decode([0x22, 0xE9, 0x22], as: MediaType(parsing: "application/json; charset=iso-8859-1")) == "é")
        let error = try #require(throws: FormatError.self) {
            try json.decode(Array("1".utf8), as: MediaType(parsing: "application/json; charset=ebcdic"))
        }
        #expect(error.code == .unsupportedMediaType)
    }

    @Test(
        arguments: [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22]]
            as [[UInt8]])
    func rejectsInvalidUTF8(_ bytes: [UInt8]) throws {
        let error = try #require(throws: FormatError.self) { try json.decode(bytes) }
        #expect(error.code == .invalidText)
        #expect(error.location?.byteOffset == 1)
    }

    @Test(arguments: [#""\uD800""#, #""\uDC00""#, #""\uD800\u0041""#, #""\uD800x""#, #""\uDBFF\uDBFF""#])
    func rejectsLoneSurrogateEscapes(_ text: String) throws {
        let error = try #require(throws: FormatError.self) { try json.decode(Array(text.utf8)) }
        #expect(error.code == .invalidText)
        #expect(error.location?.byteOffset == 1)
    }

    @Test func writesEveryScalarAsUTF8SoNoLoneSurrogateIsEverProduced() throws {
        let text = "\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}"
        let bytes = try json.encode(.string(text))
        #expect(bytes == [0x22] + Array(text.utf8) + [0x22])
        #expect(try json.decode(bytes) == .string(text))
    }
}
