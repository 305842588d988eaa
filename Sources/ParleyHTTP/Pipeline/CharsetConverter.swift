import Parley

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Converts a body in a named charset to UTF-8, so textual formats decode bodies in charsets
/// they do not know themselves (`shift_jis`, `windows-1256`, `euc-kr`, …), and UTF-8 to a named
/// charset, so a reply can be sent in the charset `Accept-Charset` prefers.
///
/// ``ResponsePipeline`` calls its converter for every `charset` the core's `Charset` does not
/// know, and `Registry.reply(with:for:options:)` for the charset it negotiated;
/// plug in your own to support more, or fewer.
public protocol CharsetConverting: Sendable {
    /// `bytes` in `charset` as UTF-8, at most `maximumBytes` long.
    ///
    /// - Throws: ``CharsetConversionError``.
    func utf8(from bytes: [UInt8], charset: String, maximumBytes: Int) throws(CharsetConversionError) -> [UInt8]

    /// The UTF-8 text `utf8` in `charset`, at most `maximumBytes` long.
    ///
    /// The default throws ``CharsetConversionError/unknownCharset(_:)`` for every charset but UTF-8.
    ///
    /// - Throws: ``CharsetConversionError``: ``CharsetConversionError/invalidBytes(charset:offset:)``
    ///   gives the offset in `utf8` of the first character `charset` cannot hold.
    func bytes(fromUTF8 utf8: [UInt8], charset: String, maximumBytes: Int) throws(CharsetConversionError) -> [UInt8]
}

extension CharsetConverting {
    /// `utf8` unchanged for UTF-8; ``CharsetConversionError/unknownCharset(_:)`` otherwise.
    public func bytes(fromUTF8 utf8: [UInt8], charset: String,
                      maximumBytes: Int) throws(CharsetConversionError) -> [UInt8] {
        guard Charset(name: charset) == .utf8 else { throw .unknownCharset(charset) }
        guard utf8.count <= maximumBytes else { throw .limitExceeded(maximum: maximumBytes) }
        return utf8
    }
}

/// Why a body could not be converted to UTF-8.
public enum CharsetConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The converter does not know the charset.
    case unknownCharset(String)
    /// The bytes are not valid in the charset; the offset of the first bad byte. Converting
    /// from UTF-8: the offset of the first character the charset cannot hold.
    case invalidBytes(charset: String, offset: Int)
    /// The converted text would be longer than this many bytes.
    case limitExceeded(maximum: Int)

    public var description: String {
        switch self {
        case .unknownCharset(let name): "charset \(name) is not one Parley or iconv converts"
        case .invalidBytes(let name, let offset): "byte \(offset) is not valid \(name)"
        case .limitExceeded(let maximum): "the converted body exceeds the limit of \(maximum) bytes"
        }
    }
}

/// The standard converter: the core's `Charset`s first, then the C library's iconv where it has
/// one (glibc knows hundreds of charsets).
///
/// Conversion streams through a fixed 64 KiB buffer, so memory stays within the output limit
/// whatever the charset's expansion; a stateful charset (ISO-2022-JP) is flushed at the end.
public struct SystemCharsetConverter: CharsetConverting {
    /// Creates the converter.
    public init() {}

    public func utf8(from bytes: [UInt8], charset: String,
                     maximumBytes: Int) throws(CharsetConversionError) -> [UInt8] {
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
        return try Self.iconvConvert(bytes, from: charset.uppercased(), to: "UTF-8", charset: charset,
                                     maximumBytes: maximumBytes)
    }

    /// The core's `Charset`s first (UTF-8 is returned as it is), then iconv.
    public func bytes(fromUTF8 utf8: [UInt8], charset: String,
                      maximumBytes: Int) throws(CharsetConversionError) -> [UInt8] {
        if let known = Charset(name: charset) {
            let output: [UInt8]
            if known == .utf8 {
                output = utf8
            } else {
                let text = String(decoding: utf8, as: UTF8.self)
                do { output = try known.encode(text) } catch {
                    throw .invalidBytes(charset: charset, offset: Self.firstUnencodableOffset(text, known))
                }
            }
            guard output.count <= maximumBytes else { throw .limitExceeded(maximum: maximumBytes) }
            return output
        }
        return try Self.iconvConvert(utf8, from: "UTF-8", to: charset.uppercased(), charset: charset,
                                     maximumBytes: maximumBytes)
    }

    /// The UTF-8 offset of the first character of `text` that `charset` cannot encode.
    private static func firstUnencodableOffset(_ text: String, _ charset: Charset) -> Int {
        var offset = 0
        for scalar in text.unicodeScalars {
            if (try? charset.encode(String(scalar))) == nil { return offset }
            offset += String(scalar).utf8.count
        }
        return offset
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    private static let chunkSize = 64 << 10

    /// Converts `bytes` between two iconv charset names; `charset` is the name errors report.
    static func iconvConvert(_ bytes: [UInt8], from source: String, to target: String, charset: String,
                      maximumBytes: Int) throws(CharsetConversionError) -> [UInt8] {
        let descriptor = iconv_open(target, source)
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
    static func iconvConvert(_ bytes: [UInt8], from source: String, to target: String, charset: String,
                      maximumBytes: Int) throws(CharsetConversionError) -> [UInt8] {
        throw .unknownCharset(charset)
    }
    #endif
}
