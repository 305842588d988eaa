import Parley
public import ParleyHTTP

/// A request as recorded.
public struct RecordedRequest: Sendable, Hashable {
    /// The method, upper-cased (`GET`; Ruby vcr stores `get`).
    public var method: String
    /// The URL as recorded (cassettes may hold placeholders such as `<DIRECTORY_URL>`).
    public var url: String
    /// The header fields.
    public var headers: RecordedFields
    /// The body, or `nil` when none was recorded.
    public var body: [UInt8]?

    /// Creates a request.
    public init(method: String, url: String, headers: RecordedFields = [:], body: [UInt8]? = nil) {
        self.method = method.uppercased()
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A response as recorded.
public struct RecordedResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// The reason phrase, possibly empty.
    public var reason: String
    /// The protocol version as recorded (`HTTP/1.1`, `h2`), when known.
    public var httpVersion: String?
    /// The header fields.
    public var headers: RecordedFields
    /// The body bytes exactly as stored (after the recording's own base64 or string
    /// representation is undone, before any `Content-Encoding` is), or `nil` when the recording
    /// holds no body (a HAR entry without `content.text`).
    public var body: [UInt8]?
    /// What the reader noticed about how the response was stored (a `Content-Length` that
    /// disagrees with a raw message, chunk framing that is missing).
    public var readingNotes: [Finding]

    /// Creates a response.
    public init(status: Int, reason: String = "", httpVersion: String? = nil, headers: RecordedFields = [:],
                body: [UInt8]?, readingNotes: [Finding] = []) {
        self.status = status
        self.reason = reason
        self.httpVersion = httpVersion
        self.headers = headers
        self.body = body
        self.readingNotes = readingNotes
    }
}

/// One recorded request–response pair.
public struct RecordedExchange: Sendable, Hashable {
    /// The position in its recording, from 0.
    public var index: Int
    /// The request.
    public var request: RecordedRequest
    /// The response.
    public var response: RecordedResponse

    /// Creates an exchange.
    public init(index: Int, request: RecordedRequest, response: RecordedResponse) {
        self.index = index
        self.request = request
        self.response = response
    }
}
