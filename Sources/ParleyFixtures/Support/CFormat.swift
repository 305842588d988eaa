#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `format` filled in by the C library's `vsnprintf`, as `String(format:)` does for the
/// numeric conversions reports use (`%.2f`, `%ld`, `%02ld`), without linking Foundation.
///
/// Pass `Int` arguments to `%ld`: C's `%d` reads 32 bits.
package func cFormat(_ format: String, _ arguments: any CVarArg...) -> String {
    withVaList(arguments) { list in
        var buffer = [UInt8](repeating: 0, count: 256)
        var length = Int(buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, list) })
        if length >= buffer.count {
            buffer = [UInt8](repeating: 0, count: length + 1)
            length = Int(withVaList(arguments) { again in
                buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, again) }
            })
        }
        return String(decoding: buffer.prefix(max(length, 0)), as: UTF8.self)
    }
}
