package import FoundationEssentials

/// RFC 3339 / ISO 8601 timestamps (`2024-05-06T07:08:09Z`, `2024-05-06T07:08:09.250+02:00`),
/// written and read without a formatter, for formats whose text has no date type and for the
/// Codable bridge.
package enum ISO8601Text {
    /// The largest distance from 1970 a written timestamp may have, in seconds (about 3.2
    /// billion years): beyond it the arithmetic would leave 64-bit integers.
    package static let maximumSeconds = 1e17

    /// The UTC timestamp of `date`, with milliseconds only when the date has a fraction of a
    /// second (`2024-05-06T07:08:09Z`, `2024-05-06T07:08:09.250Z`). Years beyond 9999 are
    /// written with more digits and years before 1 with a minus sign (ISO 8601's expanded
    /// form: `10003-03-11T02:01:35Z`, `-0100-01-01T00:00:00Z`).
    ///
    /// - Returns: `nil` for a date that is not finite or lies more than ``maximumSeconds`` from
    ///   1970: writers report it as a value they cannot write.
    package static func string(from date: Date) -> String? {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < maximumSeconds else { return nil }
        var seconds = interval.rounded(.down)
        var milliseconds = Int(((interval - seconds) * 1000).rounded())
        if milliseconds == 1000 { milliseconds = 0; seconds += 1 }
        let total = Int(seconds)
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = civilDate(fromDays: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
            + "T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if milliseconds != 0 { text += ".\(pad(milliseconds, 3))" }
        return text + "Z"
    }

    /// Why ``string(from:)`` gave `nil` for `date`, for a writer's error message.
    package static func noTimestampMessage(for date: Date) -> String {
        "the date \(date.timeIntervalSince1970) seconds from 1970 has no ISO 8601 form"
    }

    /// The date of an RFC 3339 timestamp: `YYYY-MM-DDTHH:MM:SS`, an optional fraction, then
    /// `Z` or `±HH:MM` (`T` and `Z` in either case); `nil` for anything else. The year may also
    /// take ISO 8601's expanded form that ``string(from:)`` writes: a sign, then 4 to 11 digits.
    package static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(fromUTF8: $0) }
    }

    package static func date(fromUTF8 b: UnsafeBufferPointer<UInt8>) -> Date? {
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= b.count else { return nil }
            var value = 0
            for k in 0..<width {
                let digit = Int(b[i + k]) - 48
                guard digit >= 0 && digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            i += width
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < b.count, b[i] == byte || (byte >= 0x41 && b[i] == byte | 0x20) else { return false }
            i += 1
            return true
        }
        var yearSign = 1
        if i < b.count && (b[i] == 0x2D || b[i] == 0x2B) {
            yearSign = b[i] == 0x2D ? -1 : 1
            i += 1
        }
        var yearDigits = 0
        while i + yearDigits < b.count, b[i + yearDigits] >= 0x30 && b[i + yearDigits] <= 0x39 { yearDigits += 1 }
        guard (4...11).contains(yearDigits), let unsignedYear = number(yearDigits) else { return nil }
        let year = yearSign * unsignedYear
        guard expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
              expect(0x54), let hour = number(2), expect(0x3A), let minute = number(2), expect(0x3A),
              let second = number(2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if i < b.count && (b[i] == 0x2E || b[i] == 0x2C) {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
                fraction += Double(b[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        var offset = 0
        if expect(0x5A) {
            offset = 0
        } else if i < b.count && (b[i] == 0x2B || b[i] == 0x2D) {
            let sign = b[i] == 0x2D ? -1 : 1
            i += 1
            guard let offsetHours = number(2), expect(0x3A), let offsetMinutes = number(2),
                  offsetHours < 24, offsetMinutes < 60 else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01.
    package static func civilDate(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
