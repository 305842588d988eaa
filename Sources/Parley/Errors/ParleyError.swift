public import HTTPTypes

/// The one error family of Parley's HTTP-level operations: validating and decoding responses,
/// negotiating and encoding replies, decoding request bodies.
///
/// Every response error carries the response and the raw body, so an error body (a 4xx JSON or
/// `application/problem+json`) can still be read; ``description`` is one line with a short,
/// sanitised excerpt of the body.
public struct ParleyError: Error, Sendable, CustomStringConvertible {
    /// What went wrong. An open set; compare by code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short identifier such as `"unacceptableStatus"`.
        public let rawValue: String
        /// Creates a code.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The status is not among the acceptable status codes.
        public static let unacceptableStatus = Code("unacceptableStatus")
        /// The `Content-Type` is not among the acceptable types.
        public static let unacceptableContentType = Code("unacceptableContentType")
        /// The `Content-Type` is missing.
        public static let missingContentType = Code("missingContentType")
        /// The `Content-Type` does not parse.
        public static let malformedContentType = Code("malformedContentType")
        /// No registered format decodes the type (HTTP 415).
        public static let unsupportedMediaType = Code("unsupportedMediaType")
        /// Nothing the `Accept` field allows can be produced (HTTP 406).
        public static let notAcceptable = Code("notAcceptable")
        /// A decoding limit was exceeded (HTTP 413 for bodies); see ``ParleyError/limit``.
        public static let limitExceeded = Code("limitExceeded")
        /// The format could not decode the body; see ``ParleyError/location``.
        public static let decodingFailed = Code("decodingFailed")
        /// The value could not be encoded.
        public static let encodingFailed = Code("encodingFailed")
        /// The body is empty where a value was required.
        public static let emptyBody = Code("emptyBody")
        /// Every serializer of a compound serializer failed; see ``ParleyError/underlying``.
        @available(*, deprecated, message: "CompoundResponseSerializer, which threw it, is gone")
        public static let noSerializerSucceeded = Code("noSerializerSucceeded")
        /// The request could not be built (bad URL, body on GET, unencodable parameters).
        public static let invalidRequest = Code("invalidRequest")
        /// A `Content-Encoding` no registered content coding undoes (HTTP 415 for request bodies).
        public static let unsupportedContentEncoding = Code("unsupportedContentEncoding")
    }

    /// What went wrong.
    public var code: Code
    /// A one-line explanation (without the body excerpt).
    public var message: String
    /// The response, for errors about a response.
    public var response: HTTPResponse?
    /// The raw body, for errors about a body.
    public var body: [UInt8]?
    /// The `Content-Type` received, as given.
    public var receivedContentType: String?
    /// The types that would have been acceptable (or available, for 406).
    public var acceptableTypes: [MediaType]
    /// The format involved, for decode and encode failures.
    public var format: String?
    /// Where in the body decoding failed, when known.
    public var location: FormatError.Location?
    /// The limit exceeded, for ``Code/limitExceeded``.
    public var limit: FormatError.Limit?
    /// The errors behind this one (a format's error; each serializer's, for a compound).
    public var underlying: [any Error & Sendable]
    /// For ``Code/unacceptableStatus``: the error body decoded by the registry, when it decoded.
    public var decodedBody: Value?
    /// Creates an error.
    public init(_ code: Code, _ message: String, response: HTTPResponse? = nil, body: [UInt8]? = nil,
                receivedContentType: String? = nil, acceptableTypes: [MediaType] = [],
                format: String? = nil, location: FormatError.Location? = nil,
                limit: FormatError.Limit? = nil, underlying: [any Error & Sendable] = []) {
        self.code = code
        self.message = message
        self.response = response
        self.body = body
        self.receivedContentType = receivedContentType
        self.acceptableTypes = acceptableTypes
        self.format = format
        self.location = location
        self.limit = limit
        self.underlying = underlying
    }

    /// Wraps a format's error, keeping its location and limit.
    public init(formatError error: FormatError) {
        let code: Code = error.code == .limitExceeded ? .limitExceeded : .decodingFailed
        self.init(code, error.description, format: error.format, location: error.location,
                  limit: error.limit, underlying: [error])
    }

    /// The HTTP status this error implies for a server answering it: 406, 415, 413, 400 or 500.
    public var impliedStatus: HTTPResponse.Status {
        switch code {
        case .notAcceptable: .notAcceptable
        case .unsupportedMediaType, .missingContentType, .malformedContentType, .unacceptableContentType,
             .unsupportedContentEncoding:
            .unsupportedMediaType
        case .limitExceeded: .contentTooLarge
        case .decodingFailed, .emptyBody, .invalidRequest: .badRequest
        default: .internalServerError
        }
    }

    /// A copy carrying `response` and `body`.
    public func with(response: HTTPResponse?, body: [UInt8]?) -> ParleyError {
        var copy = self
        copy.response = response
        copy.body = body
        return copy
    }

    /// One line: the message, the status when there is a response, and a short safe excerpt
    /// of the body (control characters replaced, at most 120 characters).
    public var description: String {
        var text = message
        if let response, !message.contains("\(response.status.code)") {
            text += " (status \(response.status.code))"
        }
        if let body, !body.isEmpty { text += "; body: \"\(Self.excerpt(of: body))\"" }
        return text
    }

    /// A short excerpt of a body that is safe to print: valid UTF-8 with control characters
    /// replaced by `·`, truncated with `…`.
    public static func excerpt(of body: [UInt8], maxCharacters: Int = 120) -> String {
        let prefix = body.prefix(maxCharacters * 4)
        var text = ""
        var count = 0
        for scalar in String(decoding: prefix, as: UTF8.self).unicodeScalars {
            if count == maxCharacters { text += "…"; return text }
            let isControl = scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
            text.unicodeScalars.append(isControl ? "·" : scalar)
            count += 1
        }
        if prefix.count < body.count { text += "…" }
        return text
    }
}

extension ParleyError {
    /// 415: no registered format decodes `received`.
    public static func unsupportedMediaType(_ received: String, acceptable: [MediaType]) -> ParleyError {
        ParleyError(
            .unsupportedMediaType,
            "no decoder for content type '\(received)'; "
                + "can decode \(acceptable.map(\.description).joined(separator: ", "))",
            receivedContentType: received, acceptableTypes: acceptable)
    }

    /// 406: nothing `accept` allows is available.
    public static func notAcceptable(_ accept: String?, available: [MediaType]) -> ParleyError {
        ParleyError(
            .notAcceptable,
            "nothing acceptable for Accept '\(accept ?? "")'; "
                + "available: \(available.map(\.description).joined(separator: ", "))",
            acceptableTypes: available)
    }
}
