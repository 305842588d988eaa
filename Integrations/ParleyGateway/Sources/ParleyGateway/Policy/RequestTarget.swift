/// The request target as the gateway routes and forwards it: the client's path normalised
/// (RFC 3986 §6.2.2), its query untouched.
///
/// - Percent-encoded unreserved characters (`A–Z a–z 0–9 - . _ ~`) are decoded (`/%61pi` is
///   `/api`); other escapes are kept, their hex digits upper-cased.
/// - Runs of `/` become one (`//api` is `/api`).
/// - Dot segments are removed (§5.2.4), after decoding (`/api/%2e%2e/admin` is `/admin`).
///
/// Rejected, as 400: an encoded `/` or `\` (`%2F`, `%5C`) or NUL (`%00`), which upstreams read
/// differently; a raw `\`; a malformed escape; a `..` that would climb above `/`; a target that
/// is neither a path (origin or absolute form) nor `*`.
enum RequestTarget {
    /// Why a target cannot be normalised safely.
    struct Rejection: Error, Equatable, Sendable {
        /// What is wrong, for the 400's detail.
        var reason: String
    }

    /// `target` (a path with an optional `?query`) normalised, or why it cannot be.
    static func normalized(_ target: String) throws(Rejection) -> String {
        if target == "*" { return target }
        if isNormal(target) { return target }
        let query = target.firstIndex(of: "?")
        let path = Array(target[..<(query ?? target.endIndex)].utf8)
        guard path.first == UInt8(ascii: "/") else { throw Rejection(reason: "the request target is not a path") }

        // Segments after decoding; a trailing `/` (or dot segment) keeps the path a "directory".
        var segments: [[UInt8]] = []
        var trailingSlash = false
        for raw in path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            let segment = try decodedUnreserved(raw)
            trailingSlash = false
            if segment == [UInt8(ascii: ".")] {
                trailingSlash = true
            } else if segment == [UInt8(ascii: "."), UInt8(ascii: ".")] {
                guard !segments.isEmpty else { throw Rejection(reason: "the path climbs above '/' with '..'") }
                segments.removeLast()
                trailingSlash = true
            } else {
                segments.append(segment)
            }
        }
        if path.last == UInt8(ascii: "/") { trailingSlash = true }
        var normalized: [UInt8] = [UInt8(ascii: "/")]
        normalized += segments.joined(separator: [UInt8(ascii: "/")])
        if trailingSlash, !segments.isEmpty { normalized.append(UInt8(ascii: "/")) }
        return String(decoding: normalized, as: UTF8.self) + (query.map { String(target[$0...]) } ?? "")
    }

    /// Whether `target` is a path that normalising leaves as it is: it starts with `/` and holds
    /// no escape, no `\`, no empty segment but a trailing one, and no dot segment before its query.
    private static func isNormal(_ target: String) -> Bool {
        var bytes = target.utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "/") else { return false }
        var segmentLength = 0
        var segmentDots = 0
        while true {
            let byte = bytes.next()
            if byte == nil || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") {
                if segmentDots == segmentLength, segmentLength == 1 || segmentLength == 2 { return false }
                if byte == UInt8(ascii: "/"), segmentLength == 0 { return false }
                if byte != UInt8(ascii: "/") { return true }
                segmentLength = 0
                segmentDots = 0
                continue
            }
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "\\") { return false }
            segmentLength += 1
            if byte == UInt8(ascii: ".") { segmentDots += 1 }
        }
    }

    /// One segment with its unreserved escapes decoded and the others' hex upper-cased.
    private static func decodedUnreserved(_ segment: ArraySlice<UInt8>) throws(Rejection) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(segment.count)
        var index = segment.startIndex
        while index < segment.endIndex {
            let byte = segment[index]
            if byte == UInt8(ascii: "\\") { throw Rejection(reason: "the path holds a '\\'") }
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                index += 1
                continue
            }
            guard segment.endIndex - index >= 3, let high = hexValue(segment[index + 1]),
                  let low = hexValue(segment[index + 2]) else {
                throw Rejection(reason: "the path holds a malformed percent-escape")
            }
            let decoded = high << 4 | low
            switch decoded {
            case UInt8(ascii: "/"), UInt8(ascii: "\\"):
                throw Rejection(reason: "the path holds an encoded '/' or '\\' (%2F, %5C)")
            case 0:
                throw Rejection(reason: "the path holds an encoded NUL (%00)")
            case _ where isUnreserved(decoded):
                bytes.append(decoded)
            default:
                bytes += [UInt8(ascii: "%"), hexDigit(high), hexDigit(low)]
            }
            index += 3
        }
        return bytes
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
