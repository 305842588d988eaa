public import HTTPTypes
public import Parley

/// An encoded reply: the body and the header fields that describe it.
public struct Reply: Sendable {
    /// The media type of the body, as sent in `Content-Type` (with `charset` when textual).
    public internal(set) var contentType: MediaType
    /// The body, encoded, in ``contentType``'s charset, with ``contentEncoding`` applied.
    public internal(set) var body: [UInt8]
    /// The name of the format that encoded it.
    public let formatName: String
    /// The content coding applied to ``body`` (`gzip`, `br`), or `nil` for none.
    public internal(set) var contentEncoding: String?
    /// The negotiated language, sent as `Content-Language`, or `nil` when none was negotiated.
    public internal(set) var language: String?
    /// `Content-Type`, `Vary` (`Accept` and every other field negotiated), and
    /// `Content-Encoding` and `Content-Language` when set, ready to add to a response.
    public internal(set) var headerFields: HTTPFields

    init(contentType: MediaType, body: [UInt8], formatName: String, headerFields: HTTPFields) {
        self.contentType = contentType
        self.body = body
        self.formatName = formatName
        self.headerFields = headerFields
    }

    /// A `200 OK` response head carrying ``headerFields``; pass another status to change it.
    public func response(status: HTTPResponse.Status = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headerFields: headerFields)
    }
}
