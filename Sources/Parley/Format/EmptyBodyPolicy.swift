public import HTTPTypes

/// When an empty body is a valid answer rather than a decode error, and what it means.
///
/// Responses to `HEAD` and statuses 1xx, 204, 205 and 304 have no content (RFC 9110 §6.4.1,
/// §15.3.6): whatever bytes were stored for them are not decoded. By default their empty body is
/// accepted and becomes ``Value/null``, and so is an empty body without a `Content-Type` (nothing
/// claims there is content). Every other empty body goes on to its format, which fails where it
/// requires content (JSON, XML, YAML, property lists, images). Set ``emptyMeansValue`` to accept
/// every empty body (an API that answers `200` with nothing).
public struct EmptyBodyPolicy: Sendable, Hashable {
    /// Statuses whose empty body is accepted. Default `[204, 205, 304]`.
    public var statusCodes: Set<Int>
    /// Whether an empty body answering a `HEAD` request is accepted. Default `true`.
    public var allowsHeadRequests: Bool
    /// Whether an empty body without a `Content-Type` is accepted. Default `true`.
    public var allowsUnlabelledEmptyBodies: Bool
    /// When set, every empty body is accepted and decodes to this value. Default `nil`.
    public var emptyMeansValue: Value?

    /// Creates a policy.
    public init(statusCodes: Set<Int> = [204, 205, 304], allowsHeadRequests: Bool = true,
                allowsUnlabelledEmptyBodies: Bool = true, emptyMeansValue: Value? = nil) {
        self.statusCodes = statusCodes
        self.allowsHeadRequests = allowsHeadRequests
        self.allowsUnlabelledEmptyBodies = allowsUnlabelledEmptyBodies
        self.emptyMeansValue = emptyMeansValue
    }

    /// The default policy.
    public static let standard = EmptyBodyPolicy()

    /// Whether HTTP says the response has no content whatever bytes came with it: an answer to
    /// `HEAD`, or status 1xx, 204, 205 or 304.
    public static func hasNoContent(status: Int, requestMethod: HTTPRequest.Method?) -> Bool {
        requestMethod == .head || (100..<200).contains(status) || status == 204 || status == 205 || status == 304
    }

    /// The value an empty body stands for, or `nil` when an empty body is not accepted here.
    public func emptyValue(for response: HTTPResponse, request: HTTPRequest?) -> Value? {
        if let emptyMeansValue { return emptyMeansValue }
        let status = response.status.code
        if statusCodes.contains(status) || (100..<200).contains(status) { return .null }
        if allowsHeadRequests, request?.method == .head { return .null }
        if allowsUnlabelledEmptyBodies, !response.headerFields.contains(.contentType) { return .null }
        return nil
    }
}
