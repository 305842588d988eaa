public import Parley
public import ParleyHTTP
import ParleyCompression

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
    /// `Finding.Kind.unknownContentType` a warning, or `Finding.Kind.lengthMismatch` a note).
    public var severities: [Finding.Kind: Severity]
    /// The most bytes a `Content-Encoding` may decompress to (the format's body limit bounds it
    /// too). Default 256 MiB.
    public var maxDecompressedBytes: Int
    /// Whether a mislabelled body that fails to decode as labelled but decodes as what it
    /// really is (a JPEG labelled `image/png`) passes with a warning. Default `false`: it fails.
    public var acceptsMislabelledBodies: Bool
    /// Converts charsets the core does not know. Default `SystemCharsetConverter` (iconv).
    public var charsetConverter: any CharsetConverting
    /// Whether each result keeps an ``ExchangeDetail`` (header fields, body, decoded value) for
    /// a report that shows them, such as the HTML report. Default `false`.
    public var keepsDetails = false
    /// The most body bytes an ``ExchangeDetail`` keeps. Default 256 KiB.
    public var maxDetailBodyBytes = 256 * 1024
    /// How much of a decoded value an ``ExchangeDetail`` keeps: the ``ValuePreview`` the HTML
    /// report shows (its tree's nodes, depth and string characters, a CSV table's records).
    /// Default the report's defaults, so the page shows all that was kept.
    public var previewLimits = HTMLReportLimits()
    /// A further check of each exchange whose response went through the pipeline, such as an
    /// OpenAPI contract check: it gets the exchange, the body with its content coding undone and
    /// the decoded value (`nil` when decoding failed), and returns findings whose severities
    /// ``severities`` may still change. Default `nil`.
    public var contractCheck: (@Sendable (RecordedExchange, [UInt8], Value?) -> [Finding])?

    /// Creates options.
    public init(registry: Registry, acceptableStatuses: StatusFilter? = nil, isStrict: Bool = false,
                severities: [Finding.Kind: Severity] = [:],
                maxDecompressedBytes: Int = DecodingLimits.standard.maxDecompressedBytes,
                acceptsMislabelledBodies: Bool = false,
                charsetConverter: any CharsetConverting = SystemCharsetConverter()) {
        self.registry = registry
        self.acceptableStatuses = acceptableStatuses
        self.isStrict = isStrict
        self.severities = severities
        self.maxDecompressedBytes = maxDecompressedBytes
        self.acceptsMislabelledBodies = acceptsMislabelledBodies
        self.charsetConverter = charsetConverter
    }

    /// The severity a finding of `kind` gets.
    public func severity(of kind: Finding.Kind) -> Severity {
        severities[kind] ?? kind.defaultSeverity
    }

    /// The response pipeline a check runs: the client's, with these options, gzip, deflate, br and zstd,
    /// and any status accepted unless a filter is set. `Content-Length` is compared with the
    /// stored body unless the recording is raw HTTP (its reader frames the body by that field).
    public func pipeline(for kind: RecordingKind) -> ResponsePipeline {
        let statuses = acceptableStatuses.map { filter in ResponseValidator.allStatusCodes.filter(filter.accepts) }
        let validator = ResponseValidator(acceptableStatusCodes: statuses ?? ResponseValidator.allStatusCodes)
        return ResponsePipeline(registry: registry, validator: validator,
                                contentCodings: .standard, charsetConverter: charsetConverter,
                                maxDecompressedBytes: maxDecompressedBytes,
                                acceptsMislabelledBodies: acceptsMislabelledBodies,
                                checksContentLength: kind != .rawHTTP)
    }
}
