import Parley

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }

/// Small POSIX file helpers for multipart bodies: sizes without reading, chunked reads and
/// writes, descriptors always closed.
enum FileBytes {
    /// The size of the regular file at `path`.
    static func size(ofFileAt path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw FormatError(.unsupportedValue, format: MultipartFormData.formatName,
                              "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw FormatError(.unsupportedValue, format: MultipartFormData.formatName,
                              "'\(path)' is not a regular file")
        }
        return Int(info.st_size)
    }

    /// Creates or replaces the file at `path` (mode 0600) and hands `body` a sink writing to it.
    static func write(toFileAt path: String,
                      _ body: (_ sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw error("cannot create '\(path)'") }
        defer { close(fd) }
        try body { chunk in
            var offset = 0
            while offset < chunk.count {
                let written = posixWrite(fd, chunk.baseAddress! + offset, chunk.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw error("cannot write '\(path)'")
                }
                offset += written
            }
        }
    }

    static func error(_ message: String) -> FormatError {
        FormatError(.unsupportedValue, format: MultipartFormData.formatName,
                    "\(message): \(String(cString: strerror(errno)))")
    }
}

/// Reads a file front to back through a descriptor closed on deinit.
final class FileByteReader: ByteReader {
    private let fd: Int32
    let path: String

    init(path: String) throws {
        self.path = path
        self.fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw FileBytes.error("cannot open '\(path)'") }
    }

    deinit { close(fd) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = posixRead(fd, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw FileBytes.error("cannot read '\(path)'") }
        }
    }
}
