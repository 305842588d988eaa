import Foundation
import Logging
@testable import ParleyGateway
import Testing

/// A log line's text: its timestamp, kept from one line to the next within a second, and its
/// numbers, written as digits.
@Suite struct LogLineTests {
    /// The line's text for `value`, the metadata of a line made with a fresh line.
    private static func written(_ value: LogLine.Value) -> String {
        var line = LogLine()
        line.make(date: Date(timeIntervalSince1970: 0), level: .info, label: "l", message: "m") { $0("k", value) }
        let text = String(decoding: line.bytes, as: UTF8.self)
        let prefix = "1970-01-01T00:00:00.000Z info l: m k="
        #expect(text.hasPrefix(prefix), "\(text)")
        return String(text.dropFirst(prefix.count))
    }

    @Test(arguments: [
        (Duration.zero, "0.0"), (.nanoseconds(499), "0.0"), (.nanoseconds(500), "0.001"),
        (.nanoseconds(187_400), "0.187"), (.microseconds(1500), "1.5"), (.microseconds(3250), "3.25"),
        (.microseconds(12_050), "12.05"), (.seconds(2), "2000.0"), (.nanoseconds(12_345_678_901), "12345.679"),
        (.seconds(3600), "3600000.0"), (.nanoseconds(-1_500_000), "-1.5"),
    ])
    func millisecondsAreWrittenWithAtMostThreeDecimals(_ duration: Duration, _ text: String) {
        #expect(Self.written(.milliseconds(duration)) == text)
        #expect(LogLine.Value.milliseconds(duration).text == text)
    }

    /// What the access log wrote before durations were written as digits: the milliseconds as a
    /// `Double` rounded to three decimals, in its description.
    @Test func millisecondsAreWhatTheirRoundedDoubleDescribes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var nanoseconds = Int64.random(in: 0..<100_000_000_000, using: &generator)
            if nanoseconds % 1000 == 500 { nanoseconds += 1 }   // a tie: Double's rounding of its nearest value decides
            let milliseconds = Double(nanoseconds) / 1e6
            let expected = String((milliseconds * 1000).rounded() / 1000)
            #expect(Self.written(.milliseconds(.nanoseconds(nanoseconds))) == expected, "\(nanoseconds) ns")
        }
    }

    @Test(arguments: [(0, "0"), (7, "7"), (200, "200"), (1024, "1024"), (-5, "-5"),
                      (Int.max, "9223372036854775807"), (Int.min, "-9223372036854775808")])
    func integersAreWrittenInDecimal(_ number: Int, _ text: String) {
        #expect(Self.written(.integer(number)) == text)
        #expect(LogLine.Value.integer(number).text == text)
    }

    @Test func textIsQuotedWhenItIsNotOnePlainToken() {
        #expect(Self.written(.text("/orders")) == "/orders")
        #expect(Self.written(.text("a b")) == #""a b""#)
        #expect(LogLine.Value.text("a b").text == "a b")
    }

    /// Quoted text escapes what it must wherever it falls (first, last, next to another) and
    /// copies the rest: 2,000 random texts against the escaping written out byte by byte.
    @Test func quotedTextEscapesAsEachByteWouldBe() {
        let pieces = ["a", " ", "=", "\"", "\\", "\n", "\r", "\t", "\u{1}", "\u{7F}", "\u{1F}", "é", "日本", "x=y"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 1...8, using: &generator))
                .map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(Self.written(.text(text)) == Self.quotedByteByByte(text), "\(text.debugDescription)")
        }
    }

    /// The quoting rule, one byte at a time.
    private static func quotedByteByByte(_ text: String) -> String {
        let isPlain = text.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F && !"\"=\\".utf8.contains($0) }
        guard !isPlain else { return text }
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n"): bytes += Array(#"\n"#.utf8)
            case UInt8(ascii: "\r"): bytes += Array(#"\r"#.utf8)
            case UInt8(ascii: "\t"): bytes += Array(#"\t"#.utf8)
            case 0..<0x20, 0x7F: bytes += Array("\\u{\(String(byte, radix: 16))}".utf8)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One line reused across seconds, minutes, days and years writes each timestamp as a fresh
    /// line does: the date and time of day it keeps are those of the line's own second.
    @Test func aReusedLineWritesEachTimestampAsAFreshOne() {
        let instants: [TimeInterval] = [
            1_800_000_000.25, 1_800_000_000.999, 1_800_000_001.0, 1_800_000_059.5, 1_800_000_060.001,
            1_799_999_999.75, 1_798_761_599.999, 1_798_761_600.0, 0.5, -0.25, -86_400.5, 1_800_000_000.25,
        ]
        var reused = LogLine()
        for instant in instants {
            let date = Date(timeIntervalSince1970: instant)
            reused.make(date: date, level: .info, label: "l", message: "m") { _ in }
            var fresh = LogLine()
            fresh.make(date: date, level: .info, label: "l", message: "m") { _ in }
            #expect(reused.bytes == fresh.bytes, "\(instant)")
        }
        let line = { (instant: TimeInterval) -> String in
            reused.make(date: Date(timeIntervalSince1970: instant), level: .info, label: "l", message: "m") { _ in }
            return String(decoding: reused.bytes.prefix(24), as: UTF8.self)
        }
        #expect(line(1_798_761_599.999) == "2026-12-31T23:59:59.999Z")
        #expect(line(1_798_761_600.0) == "2027-01-01T00:00:00.000Z")
        #expect(line(-0.25) == "1969-12-31T23:59:59.750Z")
        #expect(line(1_800_000_000.25) == "2027-01-15T08:00:00.250Z")
    }
}
