public import FoundationEssentials
public import HTTPTypes
public import Parley

/// One HTTP exchange as a proxy or client saw it, for ``HARRecorder/record(_:)``.
///
/// Bodies are the bytes as they crossed the wire (still in any `Content-Encoding`). A caller that
/// streams bodies need keep only their first ``RecordingOptions/maxRecordedBodyBytes`` bytes and
/// say how many there were in all (``requestBodyByteCount``, ``responseBodyByteCount``): the
/// recorder never needs more.
///
/// ```swift
/// let exchange = CapturedExchange(request: request, requestBody: [], response: response,
///                                 responseBody: prefix, responseBodyByteCount: total,
///                                 startedAt: start, totalMilliseconds: 12.5)
/// try recorder.record(exchange)
/// ```
public struct CapturedExchange: Sendable {
    /// The request: method, scheme, authority, path with query, and header fields.
    public var request: HTTPRequest
    /// The request body as received (or its first bytes; see ``requestBodyByteCount``).
    public var requestBody: [UInt8]
    /// How many bytes the request body had in all; at least `requestBody.count`.
    public var requestBodyByteCount: Int
    /// The response: status, reason and header fields, as the client received them.
    public var response: HTTPResponse
    /// The response body the client received (or its first bytes; see ``responseBodyByteCount``).
    public var responseBody: [UInt8]
    /// How many bytes the response body had in all; at least `responseBody.count`.
    public var responseBodyByteCount: Int
    /// When the request started.
    public var startedAt: Date
    /// The time from the request's start to the response's end, in milliseconds.
    public var totalMilliseconds: Double
    /// The protocol version the HAR names for both messages. Default `HTTP/1.1`.
    public var httpVersion: String
    /// What the recorder's caller adds about the exchange, written as the entry's `_parley` object
    /// (HAR 1.2 custom fields start with `_`): the gateway's contract findings under `contract`.
    /// Empty: no `_parley` field.
    public var annotations: Value.Object = [:]

    /// Creates an exchange. A body byte count below the body's length counts as its length.
    public init(request: HTTPRequest, requestBody: [UInt8] = [], requestBodyByteCount: Int? = nil,
                response: HTTPResponse, responseBody: [UInt8] = [], responseBodyByteCount: Int? = nil,
                startedAt: Date, totalMilliseconds: Double, httpVersion: String = "HTTP/1.1") {
        self.request = request
        self.requestBody = requestBody
        self.requestBodyByteCount = max(requestBodyByteCount ?? 0, requestBody.count)
        self.response = response
        self.responseBody = responseBody
        self.responseBodyByteCount = max(responseBodyByteCount ?? 0, responseBody.count)
        self.startedAt = startedAt
        self.totalMilliseconds = totalMilliseconds
        self.httpVersion = httpVersion
    }
}
