/// RFC 3339 `full-date`, `full-time` and `date-time` (with leap seconds), and ISO 8601
/// durations as RFC 3339 Appendix A gives them.
enum DateTimeFormats {
    static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.allSatisfy(FormatChecks.isDigit) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// `YYYY-MM-DD` with a day that exists in that month.
    static func date(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = digits(bytes[0..<4]), let month = digits(bytes[5..<7]), let day = digits(bytes[8..<10]),
            (1...12).contains(month), day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= days[month - 1]
    }

    /// `HH:MM:SS[.frac](Z|±HH:MM)`; second 60 only when it is 23:59:60 in UTC.
    static func time(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 9, bytes[2] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: ":"),
            let hour = digits(bytes[0..<2]), let minute = digits(bytes[3..<5]), let second = digits(bytes[6..<8]),
            hour <= 23, minute <= 59, second <= 60
        else { return false }
        var i = 8
        if bytes[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < bytes.count, FormatChecks.isDigit(bytes[i]) { i += 1 }
            guard i > start else { return false }
        }
        guard i < bytes.count else { return false }
        var offset = 0
        switch bytes[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard i + 1 == bytes.count else { return false }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard bytes.count == i + 6, bytes[i + 3] == UInt8(ascii: ":"),
                let offsetHour = digits(bytes[(i + 1)..<(i + 3)]), let offsetMinute = digits(bytes[(i + 4)..<(i + 6)]),
                offsetHour <= 23, offsetMinute <= 59
            else { return false }
            offset = (offsetHour * 60 + offsetMinute) * (bytes[i] == UInt8(ascii: "+") ? 1 : -1)
        default: return false
        }
        if second == 60 {
            let utc = ((hour * 60 + minute - offset) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    /// `full-date "T" full-time` (`T` and `Z` in either case).
    static func dateTime(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 11, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else { return false }
        return date(Array(bytes[0..<10])) && time(Array(bytes[11...]))
    }

    /// `P` then years, months, days in order, and/or `T` with hours, minutes, seconds; or weeks alone.
    static func duration(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == UInt8(ascii: "P"), bytes.count > 1 else { return false }
        var i = 1
        var units: [UInt8] = []
        var inTime = false
        var timeUnits = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "T") {
                guard !inTime else { return false }
                inTime = true
                i += 1
                continue
            }
            let start = i
            while i < bytes.count, FormatChecks.isDigit(bytes[i]) { i += 1 }
            guard i > start, i < bytes.count else { return false }
            let unit = bytes[i]
            let allowed: [UInt8] = inTime ? Array("HMS".utf8) : Array("YMDW".utf8)
            guard let position = allowed.firstIndex(of: unit) else { return false }
            // Units run in order without gaps (RFC 3339 Appendix A: `dur-hour = 1*DIGIT "H" [dur-minute]`).
            if let last = units.last, let lastPosition = allowed.firstIndex(of: last), !inTime || timeUnits > 0 {
                guard position == lastPosition + 1 else { return false }
            }
            if inTime { timeUnits += 1 }
            units.append(unit)
            i += 1
        }
        if inTime && timeUnits == 0 { return false }
        if units.isEmpty { return false }
        if units.contains(UInt8(ascii: "W")) && units.count > 1 { return false }
        return true
    }
}
