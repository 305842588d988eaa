public import Parley
public import ParleyHTTP

/// The outcome of checking one recorded exchange.
public struct ExchangeResult: Sendable {
    /// The recording file.
    public var path: String
    /// The exchange's position in the file, from 0.
    public var index: Int
    /// The request method.
    public var method: String
    /// The request URL (empty for raw captures, which hold no request).
    public var url: String
    /// The response status.
    public var status: Int
    /// The `Content-Type` as recorded, if any.
    public var contentType: String?
    /// The format that decoded (or tried to decode) the body.
    public var format: String?
    /// The body size as stored, in bytes.
    public var bodyBytes: Int
    /// Everything found, in the order found.
    public var findings: [Finding]
    /// The decoded value, when decoding succeeded (kept for snapshot comparison).
    public var value: Value?
    /// What a report shows beyond the findings; only with ``CheckOptions/keepsDetails``.
    public var detail: ExchangeDetail? = nil

    /// An exchange's outcome from its parts (the checker makes these; tests make them to feed reporters).
    package init(path: String, index: Int, method: String, url: String, status: Int, contentType: String? = nil,
                 format: String? = nil, bodyBytes: Int, findings: [Finding], value: Value? = nil,
                 detail: ExchangeDetail? = nil) {
        self.path = path
        self.index = index
        self.method = method
        self.url = url
        self.status = status
        self.contentType = contentType
        self.format = format
        self.bodyBytes = bodyBytes
        self.findings = findings
        self.value = value
        self.detail = detail
    }

    /// The most severe finding, or `nil` when nothing was found.
    public var severity: Severity? { findings.map(\.severity).max() }

    /// Whether the exchange fails the check: an error, or a warning in strict mode.
    public func fails(strict: Bool) -> Bool {
        guard let severity else { return false }
        return severity == .error || (strict && severity == .warning)
    }

    /// `ok`, `note`, `warning` or `error`.
    public var outcome: String { severity.map { $0 == .note ? "ok" : $0.description } ?? "ok" }
}
