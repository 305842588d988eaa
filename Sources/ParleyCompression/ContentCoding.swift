/// An HTTP content coding (RFC 9110 §8.4.1) that Parley can undo.
public enum ContentCoding: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `gzip` (RFC 1952), also accepted as `x-gzip`.
    case gzip
    /// `deflate`: the zlib format of RFC 1950; raw RFC 1951 data, which some servers send
    /// under this name, is accepted too.
    case deflate
    /// `identity`: no coding.
    case identity

    /// The coding a `Content-Encoding` token names (case-insensitive), or `nil` for one Parley
    /// does not decode (such as `br` or `zstd`).
    public init?(token: String) {
        switch token.lowercased() {
        case "gzip", "x-gzip": self = .gzip
        case "deflate": self = .deflate
        case "identity", "": self = .identity
        default: return nil
        }
    }

    /// The `Accept-Encoding` value listing the codings Parley decodes.
    public static let acceptEncodingValue = "gzip, deflate"

    public var description: String { rawValue }
}
