#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ParleyFixtures

/// Whole writes and reads on file descriptors, retrying interrupted calls.
///
/// The commands use these rather than Foundation's `FileHandle`, which would link all of
/// Foundation and ICU into `parley` and lengthen every run's start-up.
package enum Descriptors {
    /// Writes all of `bytes` to `descriptor`, stopping early only if the descriptor fails (a
    /// closed pipe, a full disk): there is nowhere left to report that.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        var written = 0
        while written < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            written += count
        }
    }

    /// Writes all of `bytes` to `descriptor`.
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    /// Writes the UTF-8 of `text` to `descriptor`.
    package static func writeAll(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// Everything `descriptor` gives until its end.
    ///
    /// - Throws: ``InputError`` with the system's reason when a read fails.
    package static func readAll(_ descriptor: Int32, name: String) throws(InputError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = readSome(into: &chunk, from: descriptor)
            if count < 0 { throw InputError(message: "cannot read \(name): \(systemErrorText(errno))") }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Reads what `descriptor` has, up to `buffer.count` bytes, into the start of `buffer`,
    /// retrying an interrupted read: the count read, 0 at the end, or -1 with `errno` set.
    package static func readSome(into buffer: inout [UInt8], from descriptor: Int32) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }
}
