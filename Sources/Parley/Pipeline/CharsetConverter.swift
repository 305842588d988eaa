#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Converts a body in a named charset to UTF-8, so textual formats decode bodies in charsets
/// they do not know themselves (`shift_jis`, `windows-1256`, `euc-kr`, …).
///
/// ``ResponsePipeline`` calls its converter for every `charset` the core's ``Charset`` does not
/// know; plug in your own to support more, or fewer.
public protocol CharsetConverting: Sendable {
    /// `bytes` in `charset` as UTF-8, at most `maximumBytes` long.
    ///
    /// - Throws: ``CharsetConversionError``.
    func utf8(from bytes: [UInt8], charset: String, maximumBytes: Int) throws(CharsetConversionError) -> [UInt8]
}

/// Why a body could not be converted to UTF-8.
public enum CharsetConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The converter does not know the charset.
    case unknownCharset(String)
    /// The bytes are not valid in the charset; the offset of the first bad byte.
    case invalidBytes(charset: String, offset: Int)
    /// The UTF-8 text would be longer than this many bytes.
    case limitExceeded(maximum: Int)

    public var description: String {
        switch self {
        case .unknownCharset(let name): "charset \(name) is not one Parley or iconv converts"
        case .invalidBytes(let name, let offset): "byte \(offset) is not valid \(name)"
        case .limitExceeded(let maximum): "the body converted to UTF-8 exceeds the limit of \(maximum) bytes"
        }
    }
}

/// The standard converter: the core's ``Charset``s first, then the C library's iconv where it has
/// one (glibc knows hundreds of charsets).
///
/// Conversion streams through a fixed 64 KiB buffer, so memory stays within the output limit
/// whatever the charset's expansion; a stateful charset (ISO-2022-JP) is flushed at the end.
public struct SystemCharsetConverter: CharsetConverting {
    /// Creates the converter.
    public init() {}

    public func utf8(from bytes: [UInt8], charset: String, maximumBytes: Int) throws(CharsetConversionError) -> [UInt8] {
        if let known = Charset(name: charset) {
            let text: String
            do {
                text = try bytes.withUnsafeBytes { try known.decode($0) }
            } catch {
                throw .invalidBytes(charset: charset, offset: (error as? FormatError)?.location?.byteOffset ?? 0)
            }
            guard text.utf8.count <= maximumBytes else { throw .limitExceeded(maximum: maximumBytes) }
            return Array(text.utf8)
        }
        return try Self.iconvUTF8(from: bytes, charset: charset, maximumBytes: maximumBytes)
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    private static let chunkSize = 64 << 10

    static func iconvUTF8(from bytes: [UInt8], charset: String, maximumBytes: Int) throws(CharsetConversionError) -> [UInt8] {
        let descriptor = iconv_open("UTF-8", charset.uppercased())
        guard let descriptor, descriptor != iconv_t(bitPattern: -1) else { throw .unknownCharset(charset) }
        defer { iconv_close(descriptor) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var input = bytes
        var failure: CharsetConversionError?
        input.withUnsafeMutableBufferPointer { inBuffer in
            chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                var inPointer = UnsafeMutableRawPointer(inBuffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
                var inLeft = inBuffer.count
                let chunkStart = UnsafeMutableRawPointer(chunkBuffer.baseAddress!).assumingMemoryBound(to: CChar.self)
                /// Runs iconv once (a flush when `flushing`); appends what it wrote; `false` to stop.
                func step(flushing: Bool) -> (done: Bool, errno: Int32) {
                    var outPointer: UnsafeMutablePointer<CChar>? = chunkStart
                    var outLeft = chunkBuffer.count
                    let result = flushing ? iconv(descriptor, nil, nil, &outPointer, &outLeft)
                                          : iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                    let code = result == -1 ? errno : 0
                    let written = chunkBuffer.count - outLeft
                    if output.count + written > maximumBytes {
                        failure = .limitExceeded(maximum: maximumBytes)
                        return (true, 0)
                    }
                    output.append(contentsOf: chunkBuffer[0..<written])
                    return (result != -1, code)
                }
                while inLeft > 0 {
                    let (done, code) = step(flushing: false)
                    if failure != nil { return }
                    if done { break }
                    if code == E2BIG { continue }
                    // EILSEQ (an invalid sequence) or EINVAL (one cut off at the end).
                    failure = .invalidBytes(charset: charset, offset: inBuffer.count - inLeft)
                    return
                }
                while true {
                    let (done, code) = step(flushing: true)
                    if failure != nil || done { return }
                    if code != E2BIG {
                        failure = .invalidBytes(charset: charset, offset: inBuffer.count)
                        return
                    }
                }
            }
        }
        if let failure { throw failure }
        return output
    }
    #else
    static func iconvUTF8(from bytes: [UInt8], charset: String, maximumBytes: Int) throws(CharsetConversionError) -> [UInt8] {
        throw .unknownCharset(charset)
    }
    #endif
}
