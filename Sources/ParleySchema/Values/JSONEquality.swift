import Parley

/// Equality as JSON Schema defines it for `enum`, `const` and `uniqueItems`: numbers by value
/// (`1` equals `1.0`), objects regardless of member order, arrays element by element.
enum JSONEquality {
    /// Whether `a` and `b` are the same JSON value.
    static func equal(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.integer(let x), .integer(let y)): return x == y
        // Code point by code point: Swift's `==` would equate canonically equivalent strings.
        case (.string(let x), .string(let y)): return sameUTF8(x, y)
        case (.float(let x), .float(let y)): return x == y
        case (.tagged(_, let x), _): return equal(x, b)
        case (_, .tagged(_, let y)): return equal(a, y)
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return false }
            for i in x.indices where !equal(x[i], y[i]) { return false }
            return true
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            for member in x {
                guard let other = y[member.key], equal(member.value, other) else { return false }
            }
            return true
        case (.integer, _), (.float, _), (.number, _):
            guard let x = ExactNumber(a), let y = ExactNumber(b) else { return false }
            return ExactNumber.compare(x, y) == 0
        case (.date, _), (.bytes, _), (_, .date), (_, .bytes):
            guard let x = a.schemaString, let y = b.schemaString else { return false }
            return sameUTF8(x, y)
        default: return false
        }
    }

    /// Whether two strings have the same UTF-8 bytes. Strings that `==` tells apart (it compares
    /// canonical equivalence, quickly for ASCII) differ in their bytes too, so only equal ones
    /// have their bytes compared, in place.
    static func sameUTF8(_ x: String, _ y: String) -> Bool {
        guard x == y else { return false }
        var x = x
        var y = y
        return x.withUTF8 { a in
            y.withUTF8 { b in
                guard a.count == b.count else { return false }
                for i in a.indices where a[i] != b[i] { return false }
                return true
            }
        }
    }

    /// A hash consistent with ``equal(_:_:)``: numbers hash by their `Double` value.
    static func hash(_ value: Value, into hasher: inout Hasher) {
        switch value {
        case .null: hasher.combine(0)
        case .bool(let b):
            hasher.combine(1)
            hasher.combine(b)
        case .integer, .float, .number:
            hasher.combine(2)
            let d = value.doubleValue ?? 0
            hasher.combine(d == 0 ? 0 : d)
        case .string, .date, .bytes:
            hasher.combine(3)
            hasher.combine(value.schemaString)
        case .array(let elements):
            hasher.combine(4)
            hasher.combine(elements.count)
            for e in elements { hash(e, into: &hasher) }
        case .object(let object):
            hasher.combine(5)
            // Order-independent: the sum of each member's own hash.
            var sum = 0
            for member in object {
                var h = Hasher()
                h.combine(member.key)
                hash(member.value, into: &h)
                sum &+= h.finalize()
            }
            hasher.combine(sum)
        case .tagged(_, let inner): hash(inner, into: &hasher)
        }
    }
}

/// A value that hashes and compares as JSON, for sets of instances (`uniqueItems`, large `enum`s).
struct JSONKey: Hashable {
    let value: Value
    static func == (a: JSONKey, b: JSONKey) -> Bool { JSONEquality.equal(a.value, b.value) }
    func hash(into hasher: inout Hasher) { JSONEquality.hash(value, into: &hasher) }
}
