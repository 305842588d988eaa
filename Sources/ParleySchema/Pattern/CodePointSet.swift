/// A set of code units or code points: ranges, Unicode property tests, possibly negated.
/// Membership of ASCII is precomputed into two bit words.
struct CodePointSet: Sendable {
    /// Sorted, disjoint, non-adjacent ranges.
    private(set) var ranges: [ClosedRange<UInt32>]
    /// `\p{…}` (negated: false) and `\P{…}` (negated: true) members.
    private(set) var properties: [(property: UnicodeProperty, negated: Bool)]
    /// Whether the whole set is complemented (`[^…]`).
    private(set) var isNegated: Bool
    private var asciiLow: UInt64 = 0
    private var asciiHigh: UInt64 = 0

    init(ranges: [ClosedRange<UInt32>] = [], properties: [(property: UnicodeProperty, negated: Bool)] = [],
         negated: Bool = false) {
        self.ranges = CodePointSet.normalized(ranges)
        self.properties = properties
        self.isNegated = negated
        for unit in UInt32(0)..<128 where slowContains(unit) {
            if unit < 64 { asciiLow |= 1 << UInt64(unit) } else { asciiHigh |= 1 << UInt64(unit - 64) }
        }
    }

    func contains(_ unit: UInt32) -> Bool {
        if unit < 64 { return asciiLow & (1 << UInt64(unit)) != 0 }
        if unit < 128 { return asciiHigh & (1 << UInt64(unit - 64)) != 0 }
        return slowContains(unit)
    }

    private func slowContains(_ unit: UInt32) -> Bool {
        var member = rangesContain(unit)
        if !member, !properties.isEmpty, let scalar = Unicode.Scalar(unit) {
            member = properties.contains { $0.property.contains(scalar) != $0.negated }
        }
        return member != isNegated
    }

    private func rangesContain(_ unit: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < unit { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].contains(unit)
    }

    /// The ranges sorted and merged.
    static func normalized(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// The complement of `ranges` within 0...0x10FFFF.
    static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in normalized(ranges) {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            next = range.upperBound &+ 1
        }
        if next <= 0x10FFFF { result.append(next...0x10FFFF) }
        return result
    }

    // The class escapes, as ranges.
    static let digits: [ClosedRange<UInt32>] = [0x30...0x39]
    static let wordUnits: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
    /// WhiteSpace and LineTerminator: tab, LF, VT, FF, CR, space, NBSP, U+1680, U+2000–U+200A,
    /// U+2028, U+2029, U+202F, U+205F, U+3000 and U+FEFF.
    static let whiteSpace: [ClosedRange<UInt32>] = [
        0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
        0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
    ]
    /// What `.` matches: everything but LF, CR, U+2028 and U+2029.
    static let dot = CodePointSet(ranges: [0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029], negated: true)
}
