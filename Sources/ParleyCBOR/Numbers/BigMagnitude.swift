/// A non-negative integer of any size, for CBOR bignums (tags 2 and 3): converted from and to
/// big-endian bytes and decimal text. Both conversions are quadratic in the length, which is
/// why the reader bounds bignum payloads (``CBORFormat/Options-swift.struct/maxBignumBytes``).
struct BigMagnitude: Equatable {
    /// Base 10^9 limbs, least significant first; no trailing (most significant) zero limbs.
    private var limbs: [UInt32]

    private static let base: UInt64 = 1_000_000_000

    /// The value of big-endian `bytes` (leading zero bytes allowed).
    init(bigEndian bytes: some Collection<UInt8>) {
        limbs = []
        for byte in bytes { multiplyAdd(256, UInt64(byte)) }
    }

    /// The value of ASCII decimal `digits`, or `nil` when they hold anything but `0`–`9`.
    init?(decimal digits: some Collection<UInt8>) {
        guard !digits.isEmpty else { return nil }
        limbs = []
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            multiplyAdd(10, UInt64(byte - UInt8(ascii: "0")))
        }
    }

    var isZero: Bool { limbs.isEmpty }

    /// Adds one.
    mutating func increment() { multiplyAdd(1, 1) }

    /// Subtracts one from a value above zero.
    mutating func decrement() {
        var i = 0
        while limbs[i] == 0 {
            limbs[i] = UInt32(Self.base - 1)
            i += 1
        }
        limbs[i] -= 1
        while limbs.last == 0 { limbs.removeLast() }
    }

    /// The decimal digits, without leading zeros (`"0"` for zero).
    var decimalText: String {
        guard let top = limbs.last else { return "0" }
        var text = String(top)
        for limb in limbs.dropLast().reversed() {
            let digits = String(limb)
            text += String(repeating: "0", count: 9 - digits.count) + digits
        }
        return text
    }

    /// The big-endian bytes, without leading zero bytes (empty for zero).
    var bigEndianBytes: [UInt8] {
        var remaining = limbs
        var bytes: [UInt8] = []
        while !remaining.isEmpty {
            // Divide by 256, most significant limb first; the remainder is the next byte.
            var carry: UInt64 = 0
            for i in remaining.indices.reversed() {
                let current = carry * Self.base + UInt64(remaining[i])
                remaining[i] = UInt32(current / 256)
                carry = current % 256
            }
            bytes.append(UInt8(carry))
            while remaining.last == 0 { remaining.removeLast() }
        }
        return bytes.reversed()
    }

    /// The value as `UInt64`, or `nil` when it is larger.
    var uint64: UInt64? {
        var value: UInt64 = 0
        for limb in limbs.reversed() {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: Self.base)
            let (sum, carry) = shifted.addingReportingOverflow(UInt64(limb))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }

    private mutating func multiplyAdd(_ factor: UInt64, _ addend: UInt64) {
        var carry = addend
        for i in limbs.indices {
            let product = UInt64(limbs[i]) * factor + carry
            limbs[i] = UInt32(product % Self.base)
            carry = product / Self.base
        }
        while carry > 0 {
            limbs.append(UInt32(carry % Self.base))
            carry /= Self.base
        }
    }
}
