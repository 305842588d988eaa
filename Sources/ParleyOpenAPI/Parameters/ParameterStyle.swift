/// How a parameter's value is serialized: the Parameter Object's `style` (OpenAPI 3.0.3 and 3.1,
/// "Style Values", after RFC 6570).
public enum ParameterStyle: String, Sendable, Hashable, CaseIterable {
    /// `;color=blue`: path-style expansion (RFC 6570 §3.2.7), `path` only.
    case matrix
    /// `.blue`: label expansion (RFC 6570 §3.2.5), `path` only.
    case label
    /// `color=blue`: form expansion (RFC 6570 §3.2.8), `query` and `cookie`.
    case form
    /// `blue,black`: simple expansion (RFC 6570 §3.2.2), `path` and `header`.
    case simple
    /// `color=blue%20black`: a space-separated array (or object), `query` only.
    case spaceDelimited
    /// `color=blue|black`: a pipe-separated array (or object), `query` only.
    case pipeDelimited
    /// `color[R]=100&color[G]=200`: an object's members as bracketed names, `query` only.
    case deepObject

    /// The style a parameter at `location` has when it names none: `form` for query and cookie,
    /// `simple` for path and header.
    public static func defaultStyle(for location: ParameterLocation) -> ParameterStyle {
        switch location {
        case .query, .cookie: .form
        case .path, .header: .simple
        }
    }

    /// Whether a parameter at `location` may use this style.
    public func isAllowed(in location: ParameterLocation) -> Bool {
        switch location {
        case .path: self == .matrix || self == .label || self == .simple
        case .query: self == .form || self == .spaceDelimited || self == .pipeDelimited || self == .deepObject
        case .header: self == .simple
        case .cookie: self == .form
        }
    }
}
