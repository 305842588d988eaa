import Vapor
import ParleyHTTP

extension Request {
    /// Sets the collected body to `bytes`. Vapor offers no public setter; writing content through
    /// an encoder that stores bytes as they are is its public way to replace a request's body.
    func replaceBody(with bytes: [UInt8]) {
        try? content.encode(RawBytes(bytes: bytes), using: RawBytesEncoder())
    }
}

/// Bytes to store as a body unchanged.
private struct RawBytes: Encodable {
    let bytes: [UInt8]
    func encode(to encoder: any Encoder) throws {}
}

/// Writes ``RawBytes`` into the body as they are, and leaves the header fields alone.
private struct RawBytesEncoder: Vapor.ContentEncoder {
    func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
        if let raw = encodable as? RawBytes { body.writeBytes(raw.bytes) }
    }
}
