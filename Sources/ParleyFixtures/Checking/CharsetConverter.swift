#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Parley

/// Converts bodies in charsets the core's `Charset` does not know (`shift_jis`,
/// `windows-31j`, `windows-1256`, `euc-kr`, …) to UTF-8 with the system's iconv, so textual
/// formats can decode recordings in any charset their `Content-Type` names.
enum CharsetConverter {
    enum Failure: Error {
        /// iconv does not know the charset.
        case unknownCharset
        /// The bytes are not valid in the charset; the offset of the first bad byte.
        case invalidBytes(offset: Int)
    }

    /// `bytes` in `charset` as UTF-8.
    static func utf8(from bytes: [UInt8], charset: String) throws(Failure) -> [UInt8] {
        let descriptor = iconv_open("UTF-8", charset.uppercased())
        guard let descriptor, descriptor != iconv_t(bitPattern: -1) else { throw .unknownCharset }
        defer { iconv_close(descriptor) }
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 16)
        var input = bytes
        var failedAt: Int?
        let written: Int = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuffer.baseAddress)?
                    .assumingMemoryBound(to: CChar.self)
                var inLeft = inBuffer.count
                var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuffer.baseAddress)?
                    .assumingMemoryBound(to: CChar.self)
                var outLeft = outBuffer.count
                if inLeft > 0, iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft) == -1 {
                    failedAt = inBuffer.count - inLeft
                }
                return outBuffer.count - outLeft
            }
        }
        if let failedAt { throw .invalidBytes(offset: failedAt) }
        output.removeSubrange(written...)
        return output
    }
}
