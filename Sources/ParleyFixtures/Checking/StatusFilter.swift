import Parley

/// The status codes a check accepts, written as a comma-separated list of codes (`200`),
/// classes (`2xx`) and ranges (`200-299`): `--status 2xx,304`.
public struct StatusFilter: Sendable, Hashable, CustomStringConvertible {
    private let ranges: [ClosedRange<Int>]
    /// The text it was parsed from.
    public let description: String

    /// Parses a filter; `nil` when a part is none of a code, a class or a range.
    public init?(_ text: String) {
        var ranges: [ClosedRange<Int>] = []
        for part in text.split(separator: ",") {
            let item = part.trimmingSpacesAndTabs().lowercased()
            if item.count == 3, item.hasSuffix("xx"), let digit = Int(item.prefix(1)), (1...5).contains(digit) {
                ranges.append(digit * 100...digit * 100 + 99)
            } else if let dash = item.firstIndex(of: "-"), let low = Int(item[..<dash]),
                      let high = Int(item[item.index(after: dash)...]), low <= high {
                ranges.append(low...high)
            } else if let code = Int(item), (100...999).contains(code) {
                ranges.append(code...code)
            } else {
                return nil
            }
        }
        guard !ranges.isEmpty else { return nil }
        self.ranges = ranges
        self.description = text
    }

    /// Whether `status` is accepted.
    public func accepts(_ status: Int) -> Bool {
        ranges.contains { $0.contains(status) }
    }
}
