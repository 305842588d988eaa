/// An HTTP content coding (RFC 9110 §8.4.1) that Parley can undo and apply.
public enum ContentCoding: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `gzip` (RFC 1952), also accepted as `x-gzip`.
    case gzip
    /// `deflate`: the zlib format of RFC 1950; raw RFC 1951 data, which some servers send
    /// under this name, is accepted too.
    case deflate
    /// `br`: Brotli (RFC 7932).
    case brotli = "br"
    /// `zstd`: Zstandard (RFC 8878), with the 8 MiB window RFC 9659 sets for HTTP.
    case zstd
    /// `identity`: no coding.
    case identity

    /// The coding a `Content-Encoding` token names (case-insensitive), or `nil` for one Parley
    /// does not decode (such as `compress`).
    public init?(token: String) {
        switch token.lowercased() {
        case "gzip", "x-gzip": self = .gzip
        case "deflate": self = .deflate
        case "br": self = .brotli
        case "zstd": self = .zstd
        case "identity", "": self = .identity
        default: return nil
        }
    }

    /// The `Content-Encoding` tokens that name this coding, lower-case; the first is the one
    /// Parley writes.
    public var tokens: [String] {
        switch self {
        case .gzip: ["gzip", "x-gzip"]
        default: [rawValue]
        }
    }

    /// The `Accept-Encoding` value listing the codings Parley decodes: `gzip, deflate, br, zstd`.
    public static let acceptEncodingValue = "gzip, deflate, br, zstd"

    public var description: String { rawValue }
}
