import FoundationEssentials
import ParleyHTTP
public import ParleyOpenAPI
import Synchronization

/// Answers requests from recordings, offline: matched by method and URL (and optionally body
/// and selected headers), repeated identical requests answered in recorded order.
///
/// Given a ``contract``, it refuses to serve an exchange that violates the OpenAPI document, so
/// tests never run against a stale recording: the exchange it would serve goes through the check
/// `parley check --openapi` runs (an ``ExchangeChecker`` whose ``CheckOptions/contractCheck`` is
/// `ContractChecker.recordedExchangeCheck`), and one with a `contract-*` error is thrown as a
/// ``ReplayError`` naming it (`path#index`) and listing its violations.
///
/// A `Replayer` is `Sendable`; its only mutable state, which recordings were played, is
/// behind a lock.
///
/// ```swift
/// let replayer = Replayer(recordings: [try RecordingReader().read(path: "Fixtures/recorded/api-session.har")])
/// let exchange = try replayer.replay(method: "GET", url: "https://api.example.org/users/4213")
/// ```
public final class Replayer: Sendable {
    private struct Entry: Sendable {
        let exchange: RecordedExchange
        /// The recording's path and kind, for the contract check and the error naming the exchange.
        let path: String
        let kind: RecordingKind
        let key: String
        let looseKey: String
    }

    /// The matching options.
    public let options: ReplayOptions
    /// The OpenAPI document each exchange is checked against before it is served, or `nil` to
    /// serve every match unchecked.
    public let contract: ContractChecker?
    /// The check of ``contract``: the response pipeline, then the contract.
    private let contractCheck: ExchangeChecker?
    private let entries: [Entry]
    private let played: Mutex<[String: Int]> = Mutex([:])

    /// Creates a replayer over the exchanges of `recordings`, in order; with `contract`, an
    /// exchange with a `contract-*` finding of error severity is refused, not served.
    public init(recordings: [Recording], options: ReplayOptions = ReplayOptions(), contract: ContractChecker? = nil) {
        self.options = options
        self.contract = contract
        self.contractCheck = contract.map { contract in
            var check = CheckOptions(registry: contract.registry)
            check.contractCheck = contract.recordedExchangeCheck
            return ExchangeChecker(options: check)
        }
        self.entries = recordings.flatMap { recording in
            recording.exchanges.map { exchange in
                Entry(exchange: exchange, path: recording.path, kind: recording.kind,
                      key: Self.key(method: exchange.request.method, url: exchange.request.url, options: options),
                      looseKey: Self.key(method: exchange.request.method, url: exchange.request.url, options: options,
                                         dropQuery: true))
            }
        }
    }

    /// The recorded exchange answering a request.
    ///
    /// - Throws: ``ReplayError`` when nothing matches (or, strictly, when every match was played),
    ///   or when the matching exchange violates ``contract`` (``ReplayError/violations`` lists why).
    public func replay(method: String, url: String, headers: RecordedFields = [:],
                       body: [UInt8]? = nil) throws(ReplayError) -> RecordedExchange {
        let key = Self.key(method: method, url: url, options: options)
        var matches = entries.filter { $0.key == key && accepts($0.exchange.request, headers: headers, body: body) }
        var counter = key
        if matches.isEmpty, !options.isStrict {
            let loose = Self.key(method: method, url: url, options: options, dropQuery: true)
            matches = entries.filter { entry in
                entry.looseKey == loose && accepts(entry.exchange.request, headers: headers, body: body)
            }
            counter = "~" + loose
        }
        let request = "\(method.uppercased()) \(url)"
        guard !matches.isEmpty else {
            throw ReplayError(request: request, reason: "nothing recorded matches", candidates: nearest(to: request))
        }
        let turn: Int = played.withLock { counts in
            let turn = counts[counter, default: 0]
            counts[counter] = turn + 1
            return turn
        }
        if turn < matches.count { return try checked(matches[turn], request: request) }
        guard !options.isStrict else {
            let responses = matches.count == 1 ? "response was" : "responses were"
            throw ReplayError(request: request, reason: "all \(matches.count) recorded \(responses) already played",
                              candidates: [])
        }
        return try checked(matches[matches.count - 1], request: request)
    }

    /// The entry's exchange, once ``contract`` finds no violation in it.
    private func checked(_ entry: Entry, request: String) throws(ReplayError) -> RecordedExchange {
        guard let contractCheck else { return entry.exchange }
        let findings = contractCheck.check(entry.exchange, path: entry.path, kind: entry.kind).findings
        let violations = findings.filter { $0.kind.rawValue.hasPrefix("contract-") && $0.severity == .error }
        guard violations.isEmpty else {
            let recorded = "\(entry.path)#\(entry.exchange.index)"
            throw ReplayError(request: request, reason: "the exchange recorded as \(recorded) violates the contract",
                              candidates: [], violations: violations)
        }
        return entry.exchange
    }

    /// Forgets which recordings were played.
    public func rewind() {
        played.withLock { $0.removeAll() }
    }

    private func accepts(_ recorded: RecordedRequest, headers: RecordedFields, body: [UInt8]?) -> Bool {
        if options.matchesBody, (recorded.body ?? []) != (body ?? []) { return false }
        for name in options.matchedHeaders where recorded.headers[name] != headers[name] { return false }
        return true
    }

    private func nearest(to request: String) -> [String] {
        var seen = Set<String>()
        let described = entries.map { "\($0.exchange.request.method) \($0.exchange.request.url)" }
            .filter { seen.insert($0).inserted }
        return described.map { ($0, Self.distance($0, request)) }.sorted { $0.1 < $1.1 }.prefix(3).map(\.0)
    }

    /// The matching key: method, scheme and host lower-cased, path, and the query (sorted when
    /// order does not matter); no fragment.
    static func key(method: String, url: String, options: ReplayOptions, dropQuery: Bool = false) -> String {
        guard var components = URLComponents(string: url) else { return method.uppercased() + " " + url }
        components.fragment = nil
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if dropQuery {
            components.query = nil
        } else if options.ignoresQueryOrder, let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
        }
        return method.uppercased() + " " + (components.string ?? url)
    }

    /// Levenshtein distance over UTF-8 bytes (requests are short).
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.utf8), y = Array(b.utf8)
        var previous = Array(0...y.count)
        for i in 1...max(1, x.count) where !x.isEmpty {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in 1...max(1, y.count) where !y.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return x.isEmpty ? y.count : previous[y.count]
    }
}
