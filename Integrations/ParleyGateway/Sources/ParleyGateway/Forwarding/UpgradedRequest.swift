import Foundation
import HTTPTypes
import NIOCore
import NIOHPACK

/// The HTTP/1.1 request a connection was upgraded to h2c with (RFC 7540 §3.2), as the HTTP/2
/// connection takes it: the client's settings from its `HTTP2-Settings` field, and the request
/// itself as stream 1, half-closed from the client's side (a HEADERS frame with END_STREAM, and
/// CONTINUATION frames when the head is longer than one frame).
///
/// ``EarlySettingsAcknowledgement`` puts both in front of NIO's HTTP/2 handler once the client's
/// connection preface has come, so the request then goes through a stream's pipeline like any
/// other h2c request (its head guard, policy and limits).
struct UpgradedRequest {
    /// The SETTINGS payload the client sent in `HTTP2-Settings`: whole 6-byte settings.
    let settings: ByteBuffer
    /// The frames that open stream 1 with the request's head.
    let frames: ByteBuffer

    /// The most settings `HTTP2-Settings` may carry (RFC 9113 defines 6; extensions add a few).
    static let maxSettings = 64
    /// The largest frame payload a peer may send before it knows the receiver's settings.
    static let maxFramePayload = 16_384

    /// The fields HTTP/2 forbids (RFC 9113 §8.2.2), besides those `Connection` names.
    private static let connectionSpecific: Set<String> = [
        "connection", "upgrade", "http2-settings", "keep-alive", "proxy-connection", "transfer-encoding", "host",
    ]

    /// The upgraded request for `request`, or `nil` when its `HTTP2-Settings` is not exactly one
    /// valid field or it has no authority or path for HTTP/2's pseudo-header fields.
    init?(_ request: HTTPRequest, allocator: ByteBufferAllocator) {
        let values = request.headerFields[values: Self.http2Settings]
        guard values.count == 1, let payload = Self.settingsPayload(values[0]),
              let authority = request.authority, let path = request.path else { return nil }
        self.settings = allocator.buffer(bytes: payload)

        let named = Set(Self.tokens(request.headerFields[values: .connection]))
        var block = HPACKHeaders()
        block.add(name: ":method", value: request.method.rawValue, indexing: .nonIndexable)
        block.add(name: ":scheme", value: "http", indexing: .nonIndexable)
        block.add(name: ":authority", value: authority, indexing: .nonIndexable)
        block.add(name: ":path", value: path, indexing: .nonIndexable)
        for field in request.headerFields {
            let name = field.name.canonicalName
            if Self.connectionSpecific.contains(name) || named.contains(name) { continue }
            if name == "te", field.value.lowercased() != "trailers" { continue }
            block.add(name: name, value: field.value, indexing: .nonIndexable)
        }
        // Literal fields never indexed leave the connection's HPACK tables as they were.
        var encoder = HPACKEncoder(allocator: allocator)
        var encoded = allocator.buffer(capacity: 256)
        guard (try? encoder.encode(headers: block, to: &encoded)) != nil else { return nil }
        self.frames = Self.headerFrames(encoded, allocator: allocator)
    }

    static let http2Settings = HTTPField.Name("HTTP2-Settings")!

    /// The SETTINGS payload a `HTTP2-Settings` value carries (base64url, RFC 4648 §5, trailing `=`
    /// allowed), or `nil` when it is not base64url, not whole settings, or holds a value RFC 9113
    /// §6.5.2 makes a connection error (the gateway then leaves the request on HTTP/1.1). Foundation
    /// decodes it once mapped to base64's alphabet: the root package's own base64 is package-only,
    /// and a value of at most a few hundred bytes, read once per upgrade, needs nothing faster.
    static func settingsPayload(_ value: String) -> [UInt8]? {
        var text = Substring(value).trimmingCharacters(inSpacesAndTabs: ()).utf8[...]
        while text.last == UInt8(ascii: "=") { text.removeLast() }
        guard text.count <= (maxSettings * 6 * 4 + 2) / 3,
              !text.contains(UInt8(ascii: "+")), !text.contains(UInt8(ascii: "/")) else { return nil }
        var base64 = text.map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "-"): UInt8(ascii: "+")
            case UInt8(ascii: "_"): UInt8(ascii: "/")
            default: byte
            }
        }
        base64 += repeatElement(UInt8(ascii: "="), count: (4 - base64.count % 4) % 4)
        guard let decoded = Data(base64Encoded: Data(base64)), decoded.count % 6 == 0 else { return nil }
        let bytes = [UInt8](decoded)
        for start in stride(from: 0, to: bytes.count, by: 6) {
            let identifier = UInt16(bytes[start]) << 8 | UInt16(bytes[start + 1])
            let value = bytes[(start + 2)..<(start + 6)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            switch identifier {
            case 2 where value > 1: return nil                                       // ENABLE_PUSH
            case 4 where value > 0x7FFF_FFFF: return nil                             // INITIAL_WINDOW_SIZE
            case 5 where value < 16_384 || value > 16_777_215: return nil            // MAX_FRAME_SIZE
            default: continue
            }
        }
        return bytes
    }

    /// The lower-cased tokens of comma-separated field values.
    static func tokens(_ values: [String]) -> [String] {
        var tokens: [String] = []
        for var value in values {
            value.withUTF8 { utf8 in
                HTTP1Syntax.forEachToken(UnsafeRawBufferPointer(utf8)) { token in
                    tokens.append(String(decoding: token, as: UTF8.self).lowercased())
                }
            }
        }
        return tokens
    }

    /// A HEADERS frame for stream 1 with END_STREAM, and CONTINUATION frames for what does not fit
    /// in it; the last carries END_HEADERS.
    private static func headerFrames(_ block: ByteBuffer, allocator: ByteBufferAllocator) -> ByteBuffer {
        var block = block
        var frames = allocator.buffer(capacity: block.readableBytes + 9 * (1 + block.readableBytes / maxFramePayload))
        var first = true
        repeat {
            let length = min(block.readableBytes, maxFramePayload)
            var chunk = block.readSlice(length: length)!
            let last = block.readableBytes == 0
            let type: UInt8 = first ? 0x1 : 0x9                     // HEADERS, then CONTINUATION
            let flags: UInt8 = (first ? 0x1 : 0) | (last ? 0x4 : 0)  // END_STREAM on HEADERS; END_HEADERS
            frames.writeInteger(UInt8(truncatingIfNeeded: length >> 16))
            frames.writeInteger(UInt16(truncatingIfNeeded: length))
            frames.writeInteger(type)
            frames.writeInteger(flags)
            frames.writeInteger(UInt32(1))
            frames.writeBuffer(&chunk)
            first = false
        } while block.readableBytes > 0
        return frames
    }
}
