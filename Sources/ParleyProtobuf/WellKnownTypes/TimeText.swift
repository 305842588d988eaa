import Parley

/// The RFC 3339 text of `Timestamp` and the seconds text of `Duration`, both ways, as ProtoJSON
/// writes them: fractions of 0, 3, 6 or 9 digits, `Z` on output, any offset on input.
enum TimeText {
    /// `1972-01-01T10:00:20.021Z`, or `nil` outside 0001-01-01…9999-12-31 or for nanos outside 0…999,999,999.
    static func timestamp(seconds: Int64, nanos: Int32) -> String? {
        guard WellKnownType.timestampSeconds.contains(seconds), (0...999_999_999).contains(nanos) else { return nil }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        return text + fraction(nanos) + "Z"
    }

    /// `-1.500s`, or `nil` beyond ±315,576,000,000 s or with seconds and nanos of opposite signs.
    static func duration(seconds: Int64, nanos: Int32) -> String? {
        guard WellKnownType.durationSeconds.contains(seconds), (-999_999_999...999_999_999).contains(nanos),
              !(seconds > 0 && nanos < 0), !(seconds < 0 && nanos > 0) else { return nil }
        let negative = seconds < 0 || nanos < 0
        return (negative ? "-" : "") + String(seconds.magnitude) + fraction(Int32(nanos.magnitude)) + "s"
    }

    /// Parses RFC 3339 text into seconds and nanos since the epoch.
    static func parseTimestamp(_ text: String) -> (seconds: Int64, nanos: Int32)? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = digits(bytes, 0, 4), let month = digits(bytes, 5, 2), let day = digits(bytes, 8, 2),
              let hour = digits(bytes, 11, 2), let minute = digits(bytes, 14, 2), let second = digits(bytes, 17, 2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var nanos: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            let count = index - start
            guard (1...9).contains(count), let value = digits(bytes, start, count) else { return nil }
            nanos = value
            for _ in count..<9 { nanos *= 10 }
        }
        guard index < bytes.count else { return nil }
        var offset: Int64 = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                  let hours = digits(bytes, index + 1, 2), let minutes = digits(bytes, index + 4, 2),
                  hours < 24, minutes < 60 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
        default: return nil
        }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        guard WellKnownType.timestampSeconds.contains(seconds) else { return nil }
        return (seconds, Int32(nanos))
    }

    /// Parses `-1.5s` style text into seconds and nanos of the same sign.
    static func parseDuration(_ text: String) -> (seconds: Int64, nanos: Int32)? {
        var bytes = Array(text.utf8)
        guard bytes.last == UInt8(ascii: "s") else { return nil }
        bytes.removeLast()
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes.removeFirst()
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty, parts[0].count <= 12,
              let whole = digits(Array(parts[0]), 0, parts[0].count) else { return nil }
        var nanos: Int64 = 0
        if parts.count == 2 {
            let fraction = Array(parts[1])
            guard (1...9).contains(fraction.count), let value = digits(fraction, 0, fraction.count) else { return nil }
            nanos = value
            for _ in fraction.count..<9 { nanos *= 10 }
        }
        guard WellKnownType.durationSeconds.contains(whole) else { return nil }
        return negative ? (-whole, Int32(-nanos)) : (whole, Int32(nanos))
    }

    private static func fraction(_ nanos: Int32) -> String {
        if nanos == 0 { return "" }
        if nanos % 1_000_000 == 0 { return "." + pad(Int64(nanos / 1_000_000), 3) }
        if nanos % 1000 == 0 { return "." + pad(Int64(nanos / 1000), 6) }
        return "." + pad(Int64(nanos), 9)
    }

    private static func pad(_ number: Int64, _ width: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func digits(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int64? {
        guard start + count <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[start..<(start + count)] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (the engine's calendar arithmetic).
    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        Int64(ISO8601Text.daysFromCivil(year: Int(year), month: Int(month), day: Int(day)))
    }

    /// The date of a day count since 1970-01-01.
    private static func civil(fromDays count: Int64) -> (Int64, Int64, Int64) {
        let date = ISO8601Text.civilDate(fromDays: Int(count))
        return (Int64(date.year), Int64(date.month), Int64(date.day))
    }
}
