import Foundation
public import HTTPTypes
import Parley
public import ParleyClient
import ParleyCompression

/// A client transport that answers from recordings, offline: plug it into a
/// `Client` and an app's own request → response → decode path runs in its tests
/// without a network.
///
/// ```swift
/// let recordings = try ["Fixtures/recorded/api-session.har"].map { try RecordingReader().read(path: $0) }
/// let client = Client(baseURL: URL(string: "https://api.example.org/")!,
///                     transport: ReplayTransport(replayer: Replayer(recordings: recordings)),
///                     registry: .linked)
/// let (user, _) = try await client.get("users/4213", as: User.self)
/// ```
///
/// Responses come back as a live transport delivers them: a gzip- or deflate-coded body is
/// decompressed (within ``maxDecompressedBytes``) and its `Content-Encoding` and
/// `Content-Length` fields dropped; fields `HTTPFields` cannot hold (HTTP/2 pseudo-headers) and
/// hop-by-hop framing (`Transfer-Encoding`) are left out.
public struct ReplayTransport: HTTPTransport {
    /// The replayer answering requests.
    public let replayer: Replayer
    /// The largest request body collected for body matching. Default 64 MiB.
    public var maxRequestBodyBytes: Int
    /// The most bytes a recorded coded body may decompress to. Default 256 MiB.
    public var maxDecompressedBytes: Int

    /// Creates a transport over a replayer.
    public init(replayer: Replayer, maxRequestBodyBytes: Int = 64 << 20,
                maxDecompressedBytes: Int = DecodingLimits.standard.maxDecompressedBytes) {
        self.replayer = replayer
        self.maxRequestBodyBytes = maxRequestBodyBytes
        self.maxDecompressedBytes = maxDecompressedBytes
    }

    /// Answers `request` with its recorded response.
    ///
    /// - Throws: ``ReplayError`` when no recording matches.
    public func send(_ request: HTTPRequest, body: RequestBody?) async throws -> (HTTPResponse, [UInt8]) {
        var headers = RecordedFields()
        for field in request.headerFields { headers.append(name: field.name.rawName, value: field.value) }
        let bytes = replayer.options.matchesBody ? try body?.collect(maxBytes: maxRequestBodyBytes) : nil
        let url = request.url?.absoluteString ?? "\(request.scheme ?? "https")://\(request.authority ?? "")\(request.path ?? "/")"
        let exchange = try replayer.replay(method: request.method.rawValue, url: url, headers: headers, body: bytes)
        return try response(for: exchange.response)
    }

    private func response(for recorded: RecordedResponse) throws -> (HTTPResponse, [UInt8]) {
        var body = recorded.body ?? []
        var decompressed = false
        let codings = recorded.headers.values(for: "Content-Encoding")
            .flatMap { $0.split(separator: ",") }.compactMap { ContentCoding(token: $0.trimmingSpaces()) }
        for coding in codings.reversed() where coding != .identity {
            let looksCoded = coding == .gzip ? Decompressor.looksLikeGzip(body) : Decompressor.looksLikeZlib(body)
            guard looksCoded else { continue }
            body = try Decompressor(maximumBytes: maxDecompressedBytes).decompress(body, coding: coding)
            decompressed = true
        }
        var fields = HTTPFields()
        for field in recorded.headers {
            let lower = field.name.lowercased()
            if lower == "transfer-encoding" || lower == "content-encoding" && !codings.isEmpty { continue }
            if lower == "content-length" && (decompressed || !codings.isEmpty) { continue }
            guard let name = HTTPField.Name(field.name) else { continue }
            fields.append(HTTPField(name: name, value: field.value))
        }
        let status = HTTPResponse.Status(code: recorded.status, reasonPhrase: recorded.reason)
        return (HTTPResponse(status: status, headerFields: fields), body)
    }
}
