public import ParleyHTTP

/// How a ``Replayer`` matches requests to recorded exchanges.
public struct ReplayOptions: Sendable, Hashable {
    /// Whether `?a=1&b=2` matches `?b=2&a=1`. Default `false`.
    public var ignoresQueryOrder: Bool
    /// Whether the request body must equal the recorded one. Default `false`.
    public var matchesBody: Bool
    /// Header fields whose values must equal the recorded ones (case-insensitive names).
    public var matchedHeaders: [String]
    /// Strict (the default): only an exact match is replayed, and a request matching nothing
    /// fails with the nearest recorded candidates; repeated identical requests get successive
    /// recordings and fail once those are used up. Lenient: a request matching nothing exactly
    /// falls back to method and path (any query), and the last recording repeats.
    public var isStrict: Bool

    /// Creates options.
    public init(ignoresQueryOrder: Bool = false, matchesBody: Bool = false, matchedHeaders: [String] = [],
                isStrict: Bool = true) {
        self.ignoresQueryOrder = ignoresQueryOrder
        self.matchesBody = matchesBody
        self.matchedHeaders = matchedHeaders
        self.isStrict = isStrict
    }
}

/// A request the replayer has no recording for.
public struct ReplayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `METHOD URL` of the request.
    public var request: String
    /// Why it was not replayed.
    public var reason: String
    /// The nearest recorded requests, `METHOD URL`, closest first.
    public var candidates: [String]
    /// The contract violations of the recorded exchange that was refused (empty otherwise).
    public var violations: [Finding] = []

    public var description: String {
        var text = "no recorded response for \(request): \(reason)"
        if !candidates.isEmpty { text += "; nearest recorded: " + candidates.joined(separator: ", ") }
        if !violations.isEmpty { text += ": " + violations.map(\.description).joined(separator: "; ") }
        return text
    }
}
