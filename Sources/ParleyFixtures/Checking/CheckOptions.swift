import Parley

/// What a check looks for and how strictly.
public struct CheckOptions: Sendable {
    /// The formats responses are decoded with, and their limits.
    public var registry: Registry
    /// The acceptable statuses; `nil` (the default) accepts any, since recordings legitimately
    /// hold errors.
    public var acceptableStatuses: StatusFilter?
    /// Whether warnings fail the check too.
    public var isStrict: Bool
    /// Severities that replace a finding kind's default (for example, make
    /// ``Finding/Kind/unknownContentType`` an error, or ``Finding/Kind/lengthMismatch`` a note).
    public var severities: [Finding.Kind: Severity]
    /// The most bytes a `Content-Encoding` may decompress to. Default 256 MiB.
    public var maxDecompressedBytes: Int
    /// Whether a mislabelled body that fails to decode as labelled but decodes as what it
    /// really is (a JPEG labelled `image/png`) passes with a warning. Default `false`: it fails.
    public var acceptsMislabelledBodies: Bool

    /// Creates options.
    public init(registry: Registry, acceptableStatuses: StatusFilter? = nil, isStrict: Bool = false,
                severities: [Finding.Kind: Severity] = [:], maxDecompressedBytes: Int = DecodingLimits.standard.maxDecompressedBytes,
                acceptsMislabelledBodies: Bool = false) {
        self.registry = registry
        self.acceptableStatuses = acceptableStatuses
        self.isStrict = isStrict
        self.severities = severities
        self.maxDecompressedBytes = maxDecompressedBytes
        self.acceptsMislabelledBodies = acceptsMislabelledBodies
    }

    /// The severity a finding of `kind` gets.
    public func severity(of kind: Finding.Kind) -> Severity {
        severities[kind] ?? kind.defaultSeverity
    }
}
