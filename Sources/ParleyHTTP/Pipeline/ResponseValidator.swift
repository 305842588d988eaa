public import Parley

/// What a response must be to be decoded: acceptable status codes, acceptable content types,
/// and the empty-body policy. ``ResponsePipeline`` applies it; every response serializer, the
/// client and the fixture checker pass one.
///
/// Content types are matched by the registry's rules (suffixes, ranges, aliases), never by
/// string comparison: with the default settings `application/problem+json` is acceptable
/// whenever JSON is registered.
public struct ResponseValidator: Sendable {
    /// Acceptable status codes. Default 200–299.
    public var acceptableStatusCodes: Set<Int>
    /// Acceptable content types, matched like a registry matches them; `nil` (the default)
    /// means whatever the registry can decode.
    public var acceptableContentTypes: [MediaType]? {
        didSet { contentTypeMatcher = acceptableContentTypes.map(MediaTypeMatcher.init) }
    }
    /// The matcher built once from ``acceptableContentTypes``.
    public private(set) var contentTypeMatcher: MediaTypeMatcher?
    /// When an empty body is valid.
    public var emptyBodyPolicy: EmptyBodyPolicy

    /// Every status code a response can hold, 0 to 999 (HAR exports record 0 for a request that
    /// got no answer): a validator that accepts any status.
    public static let allStatusCodes = Set(0...999)

    /// Creates a validator.
    public init(acceptableStatusCodes: Set<Int> = Set(200..<300), acceptableContentTypes: [MediaType]? = nil,
                emptyBodyPolicy: EmptyBodyPolicy = .standard) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
        self.contentTypeMatcher = acceptableContentTypes.map(MediaTypeMatcher.init)
        self.emptyBodyPolicy = emptyBodyPolicy
    }

    /// Whether `contentType` is among the acceptable content types (always, when none are set).
    public func accepts(contentType: MediaType) -> Bool {
        contentTypeMatcher.map { $0.match(contentType) != nil } ?? true
    }

    /// The acceptable status codes as short ranges: `200-299`, `200-299, 304`.
    var acceptableStatusDescription: String {
        var parts: [String] = []
        var codes = acceptableStatusCodes.sorted()[...]
        while let low = codes.first {
            var high = low
            codes.removeFirst()
            while codes.first == high + 1 { high = codes.removeFirst() }
            parts.append(low == high ? "\(low)" : "\(low)-\(high)")
        }
        return parts.joined(separator: ", ")
    }
}
