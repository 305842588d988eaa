#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPTypes
import NIOCore
import NIOHTTP1

/// The HTTP/1.1 syntax both of the gateway's decoders read (``ClientRequestDecoder`` for clients'
/// requests, ``UpstreamResponseDecoder`` for upstreams' responses), as llhttp reads it: tokens,
/// field values, comma-separated lists, chunk sizes with their extensions (RFC 9110 §5.5, §5.6;
/// RFC 9112 §7.1).
enum HTTP1Syntax {
    /// Whether `field` has the name and value given as bytes, exactly.
    static func `is`(_ field: HTTPField, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> Bool {
        field.name.rawName.withUTF8Bytes { equal($0, name) }
            && field.withUnsafeBytesOfValue { equal(UnsafeRawBufferPointer($0), value) }
    }

    /// Whether `text`'s UTF-8 is `bytes`.
    static func `is`(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        text.withUTF8Bytes { equal($0, bytes) }
    }

    /// Whether `first` and `second` hold the same bytes, compared as memory rather than one byte at a time.
    static func equal(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        guard first.count == second.count else { return false }
        guard let firstStart = first.baseAddress, let secondStart = second.baseAddress else { return true }
        return memcmp(firstStart, secondStart, first.count) == 0
    }

    /// Whether every byte of `bytes` is a field-value byte (``isValueByte(_:)``). Every byte is
    /// looked at, with arithmetic rather than branches, so that the compiler checks many at once
    /// (kept: `make gateway-instructions`, Benchmarks/Gate/kept-shortcuts.md).
    static func areValueBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var invalid: UInt8 = 0
        for byte in bytes {
            let control: UInt8 = byte < 0x20 ? 1 : 0
            let tab: UInt8 = byte == UInt8(ascii: "\t") ? 1 : 0
            let delete: UInt8 = byte == 0x7F ? 1 : 0
            invalid |= (control & ~tab) | delete
        }
        return invalid == 0
    }

    /// A chunk-size line's size: `1*HEXDIG *( ";" token [ "=" ( token / quoted-string ) ] )`.
    static func chunkSize(_ line: ByteBuffer) throws -> Int {
        try line.withUnsafeReadableBytes { bytes throws -> Int in
            var index = 0
            var size = 0
            while index < bytes.count, let digit = hexValue(bytes[index]) {
                guard size <= (Int.max - 15) / 16 else { throw HTTPParserError.invalidChunkSize }
                size = size * 16 + digit
                index += 1
            }
            guard index > 0 else { throw HTTPParserError.invalidChunkSize }
            // As llhttp reads them: a name or value may be empty, but an extension may not.
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: ";") else { throw HTTPParserError.invalidChunkSize }
                index += 1
                guard index < bytes.count else { throw HTTPParserError.invalidChunkSize }
                while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { continue }
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    index += 1
                    var closed = false
                    while index < bytes.count {
                        let byte = bytes[index]
                        index += 1
                        if byte == UInt8(ascii: "\"") {
                            closed = true
                            break
                        }
                        if byte == UInt8(ascii: "\\") {
                            guard index < bytes.count, isValueByte(bytes[index]) else {
                                throw HTTPParserError.invalidChunkSize
                            }
                            index += 1
                        } else if !isValueByte(byte) {
                            throw HTTPParserError.invalidChunkSize
                        }
                    }
                    guard closed else { throw HTTPParserError.invalidChunkSize }
                } else {
                    while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
                }
            }
            return size
        }
    }

    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// A field value's bytes: tab, visible ASCII and space, and obs-text (RFC 9110 §5.5).
    static func isValueByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\t") || (byte >= 0x20 && byte != 0x7F)
    }

    /// A token's bytes (RFC 9110 §5.6.2).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Whether `bytes` are `lowercase` but for the case of their letters.
    static func `is`(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = UnsafeRawBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        for index in 0..<bytes.count {
            var byte = bytes[index]
            if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte += 32 }
            guard byte == expected[index] else { return false }
        }
        return true
    }

    /// Calls `body` with each comma-separated element of a field value, without its spaces.
    static func forEachToken(_ value: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        var start = 0
        while start <= value.count {
            var end = start
            while end < value.count, value[end] != UInt8(ascii: ",") { end += 1 }
            var first = start
            var last = end
            while first < last, value[first] == UInt8(ascii: " ") || value[first] == UInt8(ascii: "\t") { first += 1 }
            while last > first, value[last - 1] == UInt8(ascii: " ") || value[last - 1] == UInt8(ascii: "\t") {
                last -= 1
            }
            if last > first { body(UnsafeRawBufferPointer(rebasing: value[first..<last])) }
            start = end + 1
        }
    }

    /// Reads a field line, `name ":" OWS value OWS`, and calls `body` with its name and its value
    /// without the spaces around it: a name that is not a token, or a value with a byte no value
    /// may have, is `invalidHeaderToken`.
    static func withField(
        _ line: ByteBuffer, _ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try line.withUnsafeReadableBytes { bytes throws in
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else {
                throw HTTPParserError.invalidHeaderToken
            }
            let name = UnsafeRawBufferPointer(rebasing: bytes[..<colon])
            guard name.allSatisfy(isTokenByte) else { throw HTTPParserError.invalidHeaderToken }
            var start = colon + 1
            var end = bytes.count
            while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
            while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
            let value = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            guard areValueBytes(value) else { throw HTTPParserError.invalidHeaderToken }
            try body(name, value)
        }
    }

    /// A `Content-Length` value: digits alone (no sign, space or list), within `Int`; anything
    /// else is `invalidContentLength`.
    static func contentLength(_ value: UnsafeRawBufferPointer) throws -> Int {
        var length = 0
        for byte in value {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { throw HTTPParserError.invalidContentLength }
            let (times, overflow) = length.multipliedReportingOverflow(by: 10)
            let (sum, overflowAdding) = times.addingReportingOverflow(Int(digit))
            guard !overflow, !overflowAdding else { throw HTTPParserError.invalidContentLength }
            length = sum
        }
        return length
    }
}
