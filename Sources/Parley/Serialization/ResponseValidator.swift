public import HTTPTypes

/// The validating base every Parley response serializer runs before decoding: acceptable
/// status codes, acceptable content types, and the empty-body policy.
///
/// Content types are matched by the registry's rules (suffixes, ranges, aliases), never by
/// string comparison: with the default settings `application/problem+json` is acceptable
/// whenever JSON is registered.
public struct ResponseValidator: Sendable {
    /// Acceptable status codes. Default 200–299.
    public var acceptableStatusCodes: Set<Int>
    /// Acceptable content types, matched like a registry matches them; `nil` (the default)
    /// means whatever the registry can decode.
    public var acceptableContentTypes: [MediaType]?
    /// When an empty body is valid.
    public var emptyBodyPolicy: EmptyBodyPolicy

    /// Creates a validator.
    public init(acceptableStatusCodes: Set<Int> = Set(200..<300), acceptableContentTypes: [MediaType]? = nil,
                emptyBodyPolicy: EmptyBodyPolicy = .standard) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
        self.emptyBodyPolicy = emptyBodyPolicy
    }

    /// The outcome of validating a response.
    public enum Outcome: Sendable {
        /// The body is empty and stands for this value; do not decode.
        case empty(Value)
        /// Decode the body with this match and content type.
        case decode(Registry.DecoderMatch, MediaType)
    }

    /// Validates a response against `registry`.
    ///
    /// - Throws: ``ParleyError`` with ``ParleyError/Code/unacceptableStatus``,
    ///   ``ParleyError/Code/missingContentType``, ``ParleyError/Code/malformedContentType``,
    ///   ``ParleyError/Code/unacceptableContentType`` or ``ParleyError/Code/unsupportedMediaType``,
    ///   carrying the response and body.
    public func validate(_ response: HTTPResponse, body: [UInt8], request: HTTPRequest?,
                         registry: Registry) throws(ParleyError) -> Outcome {
        if !acceptableStatusCodes.contains(response.status.code) {
            throw ParleyError(.unacceptableStatus,
                              "unacceptable status \(response.status.code) \(response.status.reasonPhrase)",
                              response: response, body: body,
                              receivedContentType: response.headerFields[.contentType])
        }
        if body.isEmpty, let value = emptyBodyPolicy.emptyValue(for: response, request: request) {
            return .empty(value)
        }
        guard let received = response.headerFields[.contentType] else {
            throw ParleyError(.missingContentType, "response has no Content-Type",
                              response: response, body: body, acceptableTypes: acceptable(registry))
        }
        let contentType: MediaType
        do {
            contentType = try MediaType(parsing: received)
        } catch {
            throw ParleyError(.malformedContentType, "malformed Content-Type '\(received)': \(error)",
                              response: response, body: body, receivedContentType: received,
                              underlying: [error])
        }
        if let acceptableContentTypes,
           Registry(formats: [AcceptedTypes(types: acceptableContentTypes)]).decoder(for: contentType) == nil {
            throw ParleyError(.unacceptableContentType,
                              "unacceptable content type '\(received)'; acceptable: \(acceptableContentTypes.map(\.description).joined(separator: ", "))",
                              response: response, body: body, receivedContentType: received,
                              acceptableTypes: acceptableContentTypes)
        }
        guard let match = registry.decoder(for: contentType) else {
            let acceptable = acceptable(registry)
            throw ParleyError(.unacceptableContentType,
                              "unacceptable content type '\(received)' (status \(response.status.code)); acceptable: \(acceptable.map(\.description).joined(separator: ", "))",
                              response: response, body: body, receivedContentType: received,
                              acceptableTypes: acceptable)
        }
        return .decode(match, contentType)
    }

    private func acceptable(_ registry: Registry) -> [MediaType] {
        acceptableContentTypes ?? registry.decodableMediaTypes
    }
}

/// A stand-in format used only to match content types by the registry's rules.
private struct AcceptedTypes: Format {
    var types: [MediaType]
    var name: String { "accepted" }
    var decodableMediaTypes: [MediaType] { types }
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value { .null }
}
