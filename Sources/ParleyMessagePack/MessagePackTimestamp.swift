import FoundationEssentials

/// The MessagePack timestamp extension (type −1): seconds and nanoseconds since 1970 in 4, 8
/// or 12 bytes.
enum MessagePackTimestamp {
    /// The extension type of timestamps.
    static let extensionType: Int8 = -1

    /// The date a timestamp payload holds, or `nil` when the payload has another size or its
    /// nanoseconds are 10^9 or more.
    static func date(from payload: Slice<UnsafeBufferPointer<UInt8>>) -> Date? {
        var index = payload.startIndex
        func next(_ width: Int) -> UInt64 {
            var result: UInt64 = 0
            for _ in 0..<width {
                result = result << 8 | UInt64(payload[index])
                index += 1
            }
            return result
        }
        let seconds: Int64
        let nanoseconds: UInt64
        switch payload.count {
        case 4:
            seconds = Int64(next(4))
            nanoseconds = 0
        case 8:
            let packed = next(8)
            nanoseconds = packed >> 34
            seconds = Int64(packed & 0x3_FFFF_FFFF)
        case 12:
            nanoseconds = next(4)
            seconds = Int64(bitPattern: next(8))
        default:
            return nil
        }
        guard nanoseconds < 1_000_000_000 else { return nil }
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    /// The smallest payload that holds `date`, nanoseconds rounded to the nearest, or `nil`
    /// when the date is not finite or its seconds do not fit 64 bits.
    static func payload(for date: Date) -> [UInt8]? {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, interval >= -9.2e18, interval <= 9.2e18 else { return nil }
        var seconds = Int64(interval.rounded(.down))
        var nanoseconds = Int64(((interval - Double(seconds)) * 1e9).rounded())
        if nanoseconds >= 1_000_000_000 {
            seconds += 1
            nanoseconds -= 1_000_000_000
        }
        func bigEndian(_ value: UInt64, _ width: Int) -> [UInt8] {
            (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        }
        if seconds >= 0 && seconds >> 34 == 0 {
            if nanoseconds == 0 && seconds <= Int64(UInt32.max) {
                return bigEndian(UInt64(seconds), 4)
            }
            return bigEndian(UInt64(nanoseconds) << 34 | UInt64(seconds), 8)
        }
        return bigEndian(UInt64(nanoseconds), 4) + bigEndian(UInt64(bitPattern: seconds), 8)
    }
}
