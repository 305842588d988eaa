import Parley
public import ParleyHTTP
public import ParleyCompression

/// What a ``HARRecorder`` writes: when it starts a new file, what it redacts, how much of a
/// body it keeps.
///
/// ```swift
/// var options = RecordingOptions()
/// options.redactedHeaders = ["x-api-key"]                     // added to the defaults
/// options.redactedPaths = ["user.password", "items[*].token"]
/// options.redactedQueryParameters += ["api_key"]              // access_token is the default
/// let recorder = try HARRecorder(directory: "recordings", registry: .linked, options: options)
/// ```
public struct RecordingOptions: Sendable {
    /// The header fields always redacted (unless ``redactsDefaultHeaders`` is `false`):
    /// `authorization`, `proxy-authorization`, `cookie`, `set-cookie`.
    public static let defaultRedactedHeaders = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// The most exchanges in one file; the file is closed when it holds this many. Default 500.
    public var maxExchangesPerFile: Int
    /// The longest a file stays open: a file opened this long ago is closed by the next
    /// ``HARRecorder/record(_:)`` or ``HARRecorder/flush()``. Default 60 seconds.
    public var maxFileAge: Duration
    /// Header fields to redact besides ``defaultRedactedHeaders`` (case-insensitive names), in
    /// requests and responses.
    public var redactedHeaders: [String]
    /// Whether ``defaultRedactedHeaders`` are redacted. Default `true`.
    public var redactsDefaultHeaders: Bool
    /// Paths of values to redact in request and response bodies that a registered format
    /// decodes and encodes (JSON, YAML, forms, …).
    ///
    /// A path is members and elements separated by dots, with an optional leading `$` or `$.`:
    /// `user.password`; `items[*].token` (every element of `items`); `items[0].token` (the
    /// first); `*.secret` (`*` is every member of an object or element of an array);
    /// `["odd.key"]` or `['odd.key']` for a key with dots, brackets or quotes (`\"` and `\\`
    /// escape inside the quotes). A path names existing values only: nothing is added.
    public var redactedPaths: [String]
    /// Query parameters whose values are redacted wherever a URL is recorded (the request's
    /// `url` and `queryString`, a response's `Location` and `redirectURL`); names compare after
    /// percent-decoding, case-insensitively. Default `["access_token"]`, the parameter RFC 6750
    /// §2.3 carries bearer tokens in.
    public var redactedQueryParameters: [String]
    /// The most body bytes recorded per message; a longer body is recorded cut to this many,
    /// with an entry comment saying so. Default 1 MiB.
    public var maxRecordedBodyBytes: Int
    /// What redacted header values and body values are replaced with. Default `REDACTED`.
    public var replacement: String
    /// The content codings undone before a body is recorded (see ``HARRecorder``). Default
    /// `ContentCodings.standard` (gzip, deflate, br, zstd).
    public var contentCodings: ContentCodings
    /// The start of every file name: `PREFIX-20261125T181700Z-0001.har`. Default `parley`.
    public var fileNamePrefix: String

    /// Creates options; every argument defaults to the value documented on its property.
    public init(maxExchangesPerFile: Int = 500, maxFileAge: Duration = .seconds(60), redactedHeaders: [String] = [],
                redactsDefaultHeaders: Bool = true, redactedPaths: [String] = [],
                redactedQueryParameters: [String] = ["access_token"], maxRecordedBodyBytes: Int = 1 << 20,
                replacement: String = "REDACTED", contentCodings: ContentCodings = .standard,
                fileNamePrefix: String = "parley") {
        self.maxExchangesPerFile = maxExchangesPerFile
        self.maxFileAge = maxFileAge
        self.redactedHeaders = redactedHeaders
        self.redactsDefaultHeaders = redactsDefaultHeaders
        self.redactedPaths = redactedPaths
        self.redactedQueryParameters = redactedQueryParameters
        self.maxRecordedBodyBytes = maxRecordedBodyBytes
        self.replacement = replacement
        self.contentCodings = contentCodings
        self.fileNamePrefix = fileNamePrefix
    }

    /// Every header name redacted, lower-cased.
    var allRedactedHeaders: Set<String> {
        Set((redactsDefaultHeaders ? Self.defaultRedactedHeaders : []) + redactedHeaders.map { $0.lowercased() })
    }

    /// Checks the limits and parses the paths.
    func validated(directory: String) throws(RecordingError) -> [RedactionPath] {
        func invalid(_ message: String) -> RecordingError { RecordingError(.invalidOptions, path: directory, message) }
        guard maxExchangesPerFile >= 1 else {
            throw invalid("maxExchangesPerFile must be at least 1, not \(maxExchangesPerFile)")
        }
        guard maxFileAge > .zero else { throw invalid("maxFileAge must be positive, not \(maxFileAge)") }
        guard maxRecordedBodyBytes >= 0 else { throw invalid("maxRecordedBodyBytes must not be negative") }
        guard !fileNamePrefix.isEmpty, !fileNamePrefix.contains("/"), !fileNamePrefix.hasPrefix(".") else {
            throw invalid("fileNamePrefix must be a plain, visible file name part, not \"\(fileNamePrefix)\"")
        }
        var paths: [RedactionPath] = []
        for text in redactedPaths {
            do {
                paths.append(try RedactionPath(parsing: text))
            } catch {
                throw invalid("redacted path \"\(text)\": \(error.message)")
            }
        }
        return paths
    }
}
