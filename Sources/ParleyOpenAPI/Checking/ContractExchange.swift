public import Parley

/// A request as the contract check reads it.
public struct ContractRequest: Sendable {
    /// The method (any case).
    public var method: String
    /// The request target: an absolute URL or a path with an optional query.
    public var target: String
    /// The header fields in order.
    public var headers: [(name: String, value: String)]
    /// The body (empty when there is none).
    public var body: [UInt8]

    /// Creates a request.
    public init(method: String, target: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The path and the raw query of ``target`` (no scheme, authority or fragment). Only a
    /// target that does not start with `/` can hold a scheme, so `/go?to=https://x` keeps its query.
    /// The delimiters are ASCII, so the target is scanned by its UTF-8 bytes, not by Characters.
    var pathAndQuery: (path: Substring, query: Substring) {
        var rest = Substring(target)
        if let fragment = rest.utf8.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<fragment] }
        if !rest.hasPrefix("/"), let colon = rest.utf8.firstIndex(of: UInt8(ascii: ":")),
           rest[colon...].hasPrefix("://") {
            rest = rest[rest.utf8.index(colon, offsetBy: 3)...]
            let slash = UInt8(ascii: "/"), mark = UInt8(ascii: "?")
            rest = rest.utf8.firstIndex(where: { $0 == slash || $0 == mark }).map { rest[$0...] } ?? ""
        }
        guard let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (rest, "") }
        return (rest[..<mark], rest[rest.utf8.index(after: mark)...])
    }
}

/// A response as the contract check reads it.
public struct ContractResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields in order.
    public var headers: [(name: String, value: String)]
    /// The body as it arrived, with any content coding already undone (empty when there is none).
    public var body: [UInt8]
    /// The body already decoded by its `Content-Type` (a response pipeline's output), so the
    /// check does not decode it again; `nil` decodes ``body``.
    public var decodedBody: Value?

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
                decodedBody: Value? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.decodedBody = decodedBody
    }
}

extension Array where Element == (name: String, value: String) {
    /// The value of the first field named `name` (any case), `nil` when there is none.
    func firstValue(named name: String) -> String? {
        first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// The values of every field named `name` (any case).
    func values(named name: String) -> [String] {
        var values: [String] = []
        for field in self where field.name.equalsIgnoringASCIICase(name) { values.append(field.value) }
        return values
    }
}

extension String {
    /// ASCII case-insensitive equality, for header field names.
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // The two byte iterators side by side (`zip` of the views cost more per byte).
        var theirs = other.utf8.makeIterator()
        for a in utf8 {
            guard let b = theirs.next() else { return false }
            if a != b && !(a | 0x20 == b | 0x20 && (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A) { return false }
        }
        return true
    }
}
