import FoundationEssentials
import Parley

/// YAML timestamps (the `!!timestamp` type of yaml.org/type/timestamp): parsing to `Date`
/// and writing ISO 8601 in UTC.
enum Timestamp {
    /// Parses `YYYY-MM-DD`, or a date followed by `T`, `t` or spaces, `HH:MM:SS`, an optional
    /// fraction, optional spaces and an optional `Z` or `±HH[:MM]` offset (UTC when absent).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = 0
        let count = bytes.count
        func digits(min: Int, max: Int) -> Int? {
            var value = 0
            var length = 0
            while index < count, length < max, bytes[index] &- UInt8(ascii: "0") < 10 {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                length += 1
            }
            return length >= min ? value : nil
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = digits(min: 4, max: 4), expect(UInt8(ascii: "-")),
              let month = digits(min: 1, max: 2), expect(UInt8(ascii: "-")),
              let day = digits(min: 1, max: 2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        let days = ISO8601Text.daysFromCivil(year: year, month: month, day: day)
        if index == count { return Date(timeIntervalSince1970: Double(days) * 86_400) }
        if expect(UInt8(ascii: "T")) || expect(UInt8(ascii: "t")) {
        } else {
            guard expect(UInt8(ascii: " ")) || expect(UInt8(ascii: "\t")) else { return nil }
            while expect(UInt8(ascii: " ")) || expect(UInt8(ascii: "\t")) {}
        }
        guard let hour = digits(min: 1, max: 2), expect(UInt8(ascii: ":")),
              let minute = digits(min: 2, max: 2), expect(UInt8(ascii: ":")),
              let second = digits(min: 2, max: 2),
              hour < 24, minute < 60, second < 61 else { return nil }
        var nanoseconds = 0
        if expect(UInt8(ascii: ".")) {
            var length = 0
            while index < count, bytes[index] &- UInt8(ascii: "0") < 10 {
                if length < 9 { nanoseconds = nanoseconds * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                length += 1
                index += 1
            }
            guard length > 0 else { return nil }
            for _ in length..<max(length, 9) { nanoseconds *= 10 }
        }
        while expect(UInt8(ascii: " ")) || expect(UInt8(ascii: "\t")) {}
        var offset = 0
        if expect(UInt8(ascii: "Z")) {
        } else if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let offsetHours = digits(min: 1, max: 2) else { return nil }
            var offsetMinutes = 0
            if expect(UInt8(ascii: ":")) {
                guard let minutes = digits(min: 2, max: 2) else { return nil }
                offsetMinutes = minutes
            }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard index == count else { return nil }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    /// Writes `date` as `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, with the fraction to nanoseconds, trimmed.
    ///
    /// - Returns: `nil` for a date outside the years 0000–9999, which a YAML timestamp cannot
    ///   hold (its year has exactly four digits).
    static func format(_ date: Date) -> String? {
        let interval = date.timeIntervalSince1970
        // 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z.
        guard interval.isFinite, interval >= -62_167_219_200, interval < 253_402_300_800 else { return nil }
        var seconds = Int(interval.rounded(.down))
        var nanoseconds = Int(((interval - Double(seconds)) * 1e9).rounded())
        if nanoseconds >= 1_000_000_000 {
            seconds += 1
            nanoseconds -= 1_000_000_000
        }
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = ISO8601Text.civilDate(fromDays: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = "\(year < 0 ? "-" : "")\(pad(abs(year), 4))-\(pad(month, 2))-\(pad(day, 2))"
        text += "T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if nanoseconds > 0 {
            var fraction = pad(nanoseconds, 9)
            while fraction.last == "0" { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }
}
