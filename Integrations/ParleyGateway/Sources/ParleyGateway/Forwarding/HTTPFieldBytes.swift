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
    /// Writes `field` as `name: value\r\n`, its value's bytes as they are.
    mutating func writeHTTPField(_ field: HTTPField) {
        writeString(field.name.rawName)
        writeStaticString(": ")
        field.withUnsafeBytesOfValue { _ = writeBytes($0) }
        writeStaticString("\r\n")
    }

    /// Writes a field made of `name` and the text `value` (a value the gateway joined or made).
    mutating func writeHTTPField(_ name: HTTPField.Name, _ value: String) {
        writeString(name.rawName)
        writeStaticString(": ")
        writeString(value)
        writeStaticString("\r\n")
    }
}
