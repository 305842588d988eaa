import HTTPTypes
import NIOCore

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
    /// Writes `field` as `name: value\r\n`, its value's bytes as they are: copied in one write, as
    /// four writes would each check the buffer's capacity and access.
    mutating func writeHTTPField(_ field: HTTPField) {
        var name = field.name.rawName
        name.withUTF8 { name in
            field.withUnsafeBytesOfValue { value in
                let size = name.count + value.count + 4
                _ = writeWithUnsafeMutableBytes(minimumWritableBytes: size) { out in
                    UnsafeMutableRawBufferPointer(rebasing: out[..<name.count])
                        .copyMemory(from: UnsafeRawBufferPointer(name))
                    var at = name.count
                    out[at] = UInt8(ascii: ":")
                    out[at + 1] = UInt8(ascii: " ")
                    at += 2
                    UnsafeMutableRawBufferPointer(rebasing: out[at..<(at + value.count)])
                        .copyMemory(from: UnsafeRawBufferPointer(value))
                    at += value.count
                    out[at] = UInt8(ascii: "\r")
                    out[at + 1] = UInt8(ascii: "\n")
                    return size
                }
            }
        }
    }

    /// Writes a field made of `name` and the text `value` (a value the gateway joined or made).
    mutating func writeHTTPField(_ name: HTTPField.Name, _ value: String) {
        writeString(name.rawName)
        writeStaticString(": ")
        writeString(value)
        writeStaticString("\r\n")
    }
}
