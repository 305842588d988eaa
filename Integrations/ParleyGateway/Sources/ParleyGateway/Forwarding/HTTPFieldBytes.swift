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

/// What writing a head needs to know of its fields, learnt in one pass over them (each pass copies
/// every field): their size as written, the framing fields among them, and whether every value is
/// one NIO's validator lets through.
struct HeadFieldSurvey {
    /// The bytes all the fields take (``HTTPField/encodedSize``).
    private(set) var size = 0
    private(set) var contentLengthSize = 0
    private(set) var transferEncodingSize = 0
    private(set) var hasContentLength = false
    /// Whether the first `Transfer-Encoding` field's value is `chunked` (false when there is none).
    private(set) var firstTransferEncodingIsChunked = false
    /// Whether every value's bytes are field-value bytes (``HTTP1Syntax/isValueByte(_:)``: no control
    /// characters but tab, NIO's validator's rule).
    private(set) var valuesAreValid = true

    init(_ fields: HTTPFields, checkingValues: Bool) {
        var sawTransferEncoding = false
        for field in fields {
            let fieldSize = field.encodedSize
            size += fieldSize
            if field.name.matches(.contentLength) {
                hasContentLength = true
                contentLengthSize += fieldSize
            } else if field.name.matches(.transferEncoding) {
                transferEncodingSize += fieldSize
                if !sawTransferEncoding {
                    sawTransferEncoding = true
                    firstTransferEncodingIsChunked = field.value == "chunked"
                }
            }
            if checkingValues, valuesAreValid {
                valuesAreValid = field.withUnsafeBytesOfValue { HTTP1Syntax.areValueBytes(UnsafeRawBufferPointer($0)) }
            }
        }
    }

    /// The bytes the fields take without the framing fields a writer drops.
    func size(droppingContentLength: Bool, droppingTransferEncoding: Bool) -> Int {
        size - (droppingContentLength ? contentLengthSize : 0) - (droppingTransferEncoding ? transferEncodingSize : 0)
    }
}
