public import Parley

extension ParleyError {
    /// The problem details (RFC 9457) the error body holds, when it is a problem document: read
    /// from `ParleyError.decodedBody` (the response pipeline decodes the body of an
    /// `ParleyError.Code.unacceptableStatus` error) and `ParleyError.receivedContentType`.
    public var problem: ProblemDetails? {
        guard let decodedBody, let type = receivedContentType.flatMap(MediaType.init) else { return nil }
        return Self.problem(in: decodedBody, contentType: type)
    }
}

extension ParleyError {
    /// The problem details in an error body, or `nil` when the body is not a problem document.
    ///
    /// A problem document has an `application/problem+…` type (`problem+json`, `problem+xml`, …)
    /// that `registry` decodes, and holds an object: in XML, a `problem` root element (in the
    /// `urn:ietf:rfc:7807` namespace, or in none). Anything else, a body that fails to decode
    /// included, gives `nil`.
    ///
    /// ```swift
    /// error.problem = ParleyError.problem(in: body, contentType: response.headerFields[.contentType],
    ///                                     registry: registry)
    /// ```
    ///
    /// - Parameters:
    ///   - body: The error body, after any `Content-Encoding` was removed.
    ///   - contentType: The response's `Content-Type` field value, or `nil`.
    ///   - registry: The formats to decode with; their limits apply.
    public static func problem(in body: [UInt8], contentType: String?, registry: Registry) -> ProblemDetails? {
        guard let contentType, let type = MediaType(contentType), isProblemType(type),
              let value = try? registry.decode(body, contentType: type) else { return nil }
        return problem(in: value, contentType: type)
    }

    /// The problem details in an error body already decoded to `value`, or `nil` when the
    /// `contentType` is no `application/problem+…` type or the value is no problem document.
    /// The response pipeline attaches this to `Code.unacceptableStatus` errors.
    public static func problem(in value: Value, contentType: MediaType) -> ProblemDetails? {
        guard isProblemType(contentType) else { return nil }
        if contentType.suffix == "xml" {
            return ProblemDetails.xmlProblemMembers(in: value, requiringNamespace: false)
                .map { ProblemDetails(members: $0, fromXML: true) }
        }
        return value.objectValue.map { ProblemDetails(members: $0, fromXML: false) }
    }

    private static func isProblemType(_ type: MediaType) -> Bool {
        type.type == "application" && type.subtype.hasPrefix("problem+")
    }
}
