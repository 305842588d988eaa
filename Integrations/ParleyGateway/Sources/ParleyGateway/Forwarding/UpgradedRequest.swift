import HTTPTypes
import NIOCore
import NIOHPACK
import NIOHTTP1
import NIOHTTPTypesHTTP1

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

    /// The upgraded request for `head`, or `nil` when its `HTTP2-Settings` is not exactly one valid
    /// field or the head does not convert to HTTP/2's pseudo-header fields.
    init?(_ head: HTTPRequestHead, allocator: ByteBufferAllocator) {
        let values = head.headers["http2-settings"]
        guard values.count == 1, let payload = Self.settingsPayload(values[0]),
              let request = try? HTTPRequest(head, secure: false, splitCookie: false),
              let authority = request.authority, let path = request.path else { return nil }
        self.settings = allocator.buffer(bytes: payload)

        let named = Set(Self.tokens(head.headers["connection"]))
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

    /// The SETTINGS payload a `HTTP2-Settings` value carries (base64url, trailing `=` allowed), or
    /// `nil` when it is not base64url, not whole settings, or holds a value RFC 9113 §6.5.2 makes
    /// a connection error (the gateway then leaves the request on HTTP/1.1).
    static func settingsPayload(_ value: String) -> [UInt8]? {
        var text = Substring(value).trimmingCharacters(inSpacesAndTabs: ())
        while text.last == "=" { text.removeLast() }
        guard text.utf8.count <= (maxSettings * 6 * 4 + 2) / 3 else { return nil }
        var bytes: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text.utf8 {
            guard let sextet = sextet(character) else { return nil }
            accumulator = accumulator << 6 | UInt32(sextet)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // Left-over bits are padding: fewer than a byte, and zero.
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0, bytes.count % 6 == 0 else { return nil }
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

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// The lower-cased tokens of comma-separated field values.
    static func tokens(_ values: [String]) -> [String] {
        var tokens: [String] = []
        for value in values { ForwardedFields.forEachToken(of: value) { tokens.append($0.lowercased()) } }
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
