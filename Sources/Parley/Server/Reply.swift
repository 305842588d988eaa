public import HTTPTypes

/// An encoded reply: the body and the header fields that describe it.
public struct Reply: Sendable {
    /// The media type of the body, as sent in `Content-Type` (with `charset` when textual).
    public let contentType: MediaType
    /// The encoded body.
    public let body: [UInt8]
    /// The name of the format that encoded it.
    public let formatName: String
    /// `Content-Type` and `Vary: Accept`, ready to add to a response.
    public let headerFields: HTTPFields

    /// A `200 OK` response head carrying ``headerFields``; pass another status to change it.
    public func response(status: HTTPResponse.Status = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headerFields: headerFields)
    }
}
