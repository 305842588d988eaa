import Parley
import Testing

@Suite struct StringUTF8BytesTests {
    /// Texts of every length around the inline limit (15 bytes): ASCII, with a two-byte and a
    /// four-byte character, and with invalid bytes (a stray `0xFF`, a lone continuation byte, a
    /// sequence cut off at the end).
    static let texts: [[UInt8]] = (0...40).flatMap { length -> [[UInt8]] in
        let ascii = Array(repeating: UInt8(ascii: "k"), count: length)
        guard length > 0 else { return [ascii] }
        var twoByte = ascii
        twoByte.replaceSubrange(0..<min(2, length), with: Array("é".utf8).prefix(length))
        var fourByte = ascii
        fourByte.replaceSubrange((length - min(4, length))..<length, with: Array("𝄞".utf8).prefix(min(4, length)))
        var stray = ascii
        stray[length / 2] = 0xFF
        var continuation = ascii
        continuation[0] = 0x80
        return [ascii, twoByte, fourByte, stray, continuation]
    }

    @Test(arguments: texts)
    func makesTheStringDecodingMakes(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            let made = String(utf8: buffer)
            let decoded = String(decoding: buffer, as: UTF8.self)
            #expect(made == decoded)
            #expect(Array(made.utf8) == Array(decoded.utf8))
        }
    }

    @Test func anEmptyBufferWithoutAnAddressIsTheEmptyString() {
        #expect(String(utf8: UnsafeBufferPointer<UInt8>(start: nil, count: 0)) == "")
    }
}
