import HTTPTypes
import NIOCore
import ParleyHTTP

/// A field as HTTP/1.1 carries it: its value's bytes as received, not its text. The decoders keep a
/// value that is not UTF-8 as bytes (``HTTPField/value`` reads them with U+FFFD in place of what is
/// not UTF-8), and the writers send those bytes, so the gateway forwards values as it got them.
extension HTTPField {
    /// The bytes `name: value\r\n` takes.
    var encodedSize: Int {
        name.rawName.utf8.count + withUnsafeBytesOfValue { $0.count } + 4
    }
}

extension ByteBuffer {
    /// Writes a head of about `size` bytes in one write: `body` hands its parts to a
    /// ``HeadWriter``, which copies them into the buffer's memory. The buffer's capacity and
    /// ownership are checked once for the whole head, not once for each part. Should the parts
    /// take more room than the buffer had, nothing is written and `body` runs again with room for
    /// them all: a size reckoned short costs a second pass, never a crash or a cut head.
    mutating func writeHead(upTo size: Int, _ body: (inout HeadWriter) -> Void) {
        var room = size
        while true {
            var needed = 0
            let written = writeWithUnsafeMutableBytes(minimumWritableBytes: room) { memory in
                var writer = HeadWriter(memory)
                body(&writer)
                needed = writer.count
                return writer.count <= memory.count ? writer.count : 0
            }
            if written == needed { return }
            room = needed
        }
    }
}

/// A connection's buffer for the heads it writes. Once the socket let the last head go, the next
/// is written into its storage (`clear` copies nothing, and makes new storage while a write still
/// holds it). A head is written first in ``room``, what the connection's largest head took, which
/// that storage keeps anyway; one that needs more is written again with it
/// (``ByteBuffer/writeHead(upTo:_:)``).
struct HeadBuffer {
    private var last: ByteBuffer?
    /// The bytes a head is written in first.
    private(set) var room: Int

    /// `room`: the bytes the connection's first head is written in first.
    init(room: Int) { self.room = room }

    /// The buffer for the next head: the last one's, emptied (or a new one from `allocator`).
    mutating func take(with allocator: ByteBufferAllocator) -> ByteBuffer {
        var bytes = last.take() ?? allocator.buffer(capacity: room)
        bytes.clear(minimumCapacity: room)
        return bytes
    }

    /// Keeps `head`, just written, for the next head, whose room grows to its size.
    mutating func keep(_ head: ByteBuffer) {
        room = max(room, head.readableBytes)
        last = head
    }
}

extension ByteBufferAllocator {
    /// The end of a chunked body: the last chunk and the trailers, if any (RFC 9112 §7.1).
    func lastChunk(trailers: HTTPFields?) -> ByteBuffer {
        let fields = trailers ?? [:]
        let size = 5 + fields.reduce(0) { $0 + $1.encodedSize }
        var bytes = buffer(capacity: size)
        bytes.writeHead(upTo: size) { end in
            end.write("0\r\n")
            for field in fields { end.write(field) }
            end.write("\r\n")
        }
        return bytes
    }
}

/// Copies the parts of a head (an HTTP/1.1 start line, fields, chunk framing) one after the other
/// into memory sized for them beforehand (``ByteBuffer/writeHead(upTo:_:)``). A field's value
/// is written as its bytes, not its text, so the gateway forwards values as it got them.
struct HeadWriter {
    private let memory: UnsafeMutableRawBufferPointer
    /// The bytes the parts take so far: once past `memory`'s end, the parts are counted, not copied.
    private(set) var count = 0

    init(_ memory: UnsafeMutableRawBufferPointer) { self.memory = memory }

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        if bytes.count <= memory.count - count, let source = bytes.baseAddress, let start = memory.baseAddress {
            (start + count).copyMemory(from: source, byteCount: bytes.count)
        }
        count += bytes.count
    }

    mutating func write(_ text: StaticString) {
        write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes the UTF-8 of `text` (a string literal goes to the `StaticString` overload: no string is made).
    mutating func write(text: String) {
        text.withUTF8Bytes { write($0) }
    }

    /// Writes `field` as `name: value\r\n` (``HTTPField/encodedSize`` bytes).
    mutating func write(_ field: HTTPField) {
        write(text: field.name.rawName)
        write(": ")
        field.withUnsafeBytesOfValue { write(UnsafeRawBufferPointer($0)) }
        write("\r\n")
    }

    /// Writes `field` as `name: value\r\n`, and says whether its value passes NIO's request
    /// validator (``HTTP1Syntax/areValueBytes(_:)``), read in the same pass.
    mutating func write(checking field: HTTPField) -> Bool {
        write(text: field.name.rawName)
        write(": ")
        let isValid = field.withUnsafeBytesOfValue { value in
            let bytes = UnsafeRawBufferPointer(value)
            write(bytes)
            return HTTP1Syntax.areValueBytes(bytes)
        }
        write("\r\n")
        return isValid
    }

    /// Writes a field made of `name` and the text `value` (a value the gateway joined or made).
    mutating func write(_ name: HTTPField.Name, _ value: String) {
        write(text: name.rawName)
        write(": ")
        write(text: value)
        write("\r\n")
    }
}

extension [UInt8] {
    /// Appends the field line `name: value\r\n` (``ForwardedFieldLines``, ``ClientFieldLines``).
    mutating func appendFieldLine(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        append(contentsOf: name)
        append(UInt8(ascii: ":"))
        append(UInt8(ascii: " "))
        append(contentsOf: value)
        append(UInt8(ascii: "\r"))
        append(UInt8(ascii: "\n"))
    }
}
