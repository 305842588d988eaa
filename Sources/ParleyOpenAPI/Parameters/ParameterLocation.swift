/// Where a request carries a parameter: the Parameter Object's `in`.
public enum ParameterLocation: String, Sendable, Hashable, CaseIterable {
    /// A path template variable, `/books/{id}`.
    case path
    /// A query string member.
    case query
    /// A header field.
    case header
    /// A member of the `Cookie` header field.
    case cookie
}
