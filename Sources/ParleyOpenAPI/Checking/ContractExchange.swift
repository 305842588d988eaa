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
    /// The delimiters are ASCII, so they are found in one pass over the target's UTF-8 bytes.
    var pathAndQuery: (path: Substring, query: Substring) {
        let utf8 = target.utf8
        let (start, mark, end) = target.withUTF8Bytes(Self.pathAndQueryOffsets)
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        guard let mark else { return (target[index(start)..<index(end)], "") }
        return (target[index(start)..<index(mark)], target[index(mark + 1)..<index(end)])
    }

    /// Where ``pathAndQuery``'s parts are in a target's bytes: the path's start, the `?` (if
    /// any) and the end (a `#` or the last byte).
    static func pathAndQueryOffsets(_ bytes: UnsafeBufferPointer<UInt8>) -> (start: Int, mark: Int?, end: Int) {
        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        var start = 0
        if end > 0, bytes[0] != UInt8(ascii: "/"), let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")),
           colon + 2 < end, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") {
            start = bytes[(colon + 3)..<end].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? end
        }
        return (start, bytes[start..<end].firstIndex(of: UInt8(ascii: "?")), end)
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
        return withUTF8Bytes { a in
            other.withUTF8Bytes { b in
                for index in 0..<a.count where a[index] != b[index] {
                    let (x, y) = (a[index] | 0x20, b[index] | 0x20)
                    if x != y || x < UInt8(ascii: "a") || x > UInt8(ascii: "z") { return false }
                }
                return true
            }
        }
    }

    /// `body` run on the string's UTF-8 bytes: its own storage (a copy only for a string that
    /// has none, such as one bridged from elsewhere).
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var text = self
        return text.withUTF8(body)
    }
}

extension Substring {
    /// `body` run on the text's UTF-8 bytes, as ``Swift/String/withUTF8Bytes(_:)`` does.
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var text = self
        return text.withUTF8(body)
    }
}
