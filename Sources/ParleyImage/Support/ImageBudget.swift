import Parley

/// The bytes one decode may still allocate because of its input.
///
/// A decode starts with `maxDecompressedBytes` and charges, before allocating it, everything the
/// input makes it hold: the RGBA8 pixel buffer, then what the library keeps for this image (TIFF
/// tag values, libpng's row buffers, libjpeg's coefficient arrays, libwebp's extra buffers). What
/// is left is handed to the library as its own ceiling. Exceeding it throws `limitExceeded`
/// naming `maxDecompressedBytes`.
struct ImageBudget {
    /// The whole budget, `maxDecompressedBytes`.
    let maximum: Int
    /// What is left to charge.
    private(set) var remaining: Int

    init(_ limits: ImageLimits) {
        maximum = max(0, limits.maxDecompressedBytes)
        remaining = maximum
    }

    /// Takes `bytes` from the budget for `purpose`, or throws `limitExceeded` when they do not fit.
    mutating func charge(_ bytes: Int, for purpose: String, format: String) throws {
        guard bytes >= 0, bytes <= remaining else {
            let (actual, overflow) = (maximum - remaining).addingReportingOverflow(max(bytes, 0))
            throw FormatError(.limitExceeded, format: format,
                              "\(purpose) would take the decode past maxDecompressedBytes (\(maximum))",
                              limit: FormatError.Limit(name: "maxDecompressedBytes", maximum: maximum,
                                                       actual: overflow || bytes < 0 ? nil : actual))
        }
        remaining -= bytes
    }

    /// The product `a × b × c` of numbers read from input, or `nil` when it overflows.
    static func product(_ a: Int, _ b: Int, _ c: Int = 1) -> Int? {
        let (ab, first) = a.multipliedReportingOverflow(by: b)
        let (abc, second) = ab.multipliedReportingOverflow(by: c)
        return first || second ? nil : abc
    }
}
