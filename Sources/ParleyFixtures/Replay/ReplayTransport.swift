import FoundationEssentials
public import HTTPTypes
public import Parley
public import ParleyHTTP
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
/// Responses come back as a live transport delivers them: a body in any content coding of
/// `ContentCodings.standard` (gzip, deflate, br, zstd) is
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
        let url = request.url?.absoluteString
            ?? "\(request.scheme ?? "https")://\(request.authority ?? "")\(request.path ?? "/")"
        let exchange = try replayer.replay(method: request.method.rawValue, url: url, headers: headers, body: bytes)
        if exchange.isMissingItsBody {
            throw ReplayError(request: "\(request.method.rawValue) \(url)",
                              reason: "the recording holds no body for this response", candidates: [])
        }
        if exchange.response.headers.exceedsMaxCount {
            throw ReplayError(request: "\(request.method.rawValue) \(url)",
                              reason: exchange.response.headers.overMaxCountMessage, candidates: [])
        }
        return try response(for: exchange.response)
    }

    /// The recorded response as a decompressing transport delivers it: the content-coding step
    /// (the client's own) undoes gzip or deflate and drops the coding fields.
    private func response(for recorded: RecordedResponse) throws -> (HTTPResponse, [UInt8]) {
        var response = recorded.httpResponse
        let body = recorded.body ?? []
        do {
            let undone = try ContentCodingStep(.standard, maxDecompressedBytes: maxDecompressedBytes)
                .undo(body, fields: response.headerFields, registry: .builtIn)
            response.headerFields = undone.headerFields
            return (response, undone.body)
        } catch {
            throw error.with(response: response, body: body)
        }
    }
}
