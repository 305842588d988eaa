public import HTTPTypes

/// When an empty body is a valid answer rather than a decode error, and what it means.
///
/// By default an empty body is accepted for `HEAD` requests and `204 No Content` / `205 Reset
/// Content` responses and becomes ``Value/null``. Set ``emptyMeansValue`` to accept every empty
/// body (an API that answers `200` with nothing).
public struct EmptyBodyPolicy: Sendable, Hashable {
    /// Statuses whose empty body is accepted. Default `[204, 205]`.
    public var statusCodes: Set<Int>
    /// Whether an empty body answering a `HEAD` request is accepted. Default `true`.
    public var allowsHeadRequests: Bool
    /// When set, every empty body is accepted and decodes to this value. Default `nil`.
    public var emptyMeansValue: Value?

    /// Creates a policy.
    public init(statusCodes: Set<Int> = [204, 205], allowsHeadRequests: Bool = true, emptyMeansValue: Value? = nil) {
        self.statusCodes = statusCodes
        self.allowsHeadRequests = allowsHeadRequests
        self.emptyMeansValue = emptyMeansValue
    }

    /// The default policy: `HEAD`, 204 and 205 only.
    public static let standard = EmptyBodyPolicy()

    /// The value an empty body stands for, or `nil` when an empty body is not accepted here.
    public func emptyValue(for response: HTTPResponse, request: HTTPRequest?) -> Value? {
        if let emptyMeansValue { return emptyMeansValue }
        if statusCodes.contains(response.status.code) { return .null }
        if allowsHeadRequests, request?.method == .head { return .null }
        return nil
    }
}
