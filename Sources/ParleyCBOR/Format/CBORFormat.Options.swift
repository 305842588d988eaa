extension CBORFormat {
    /// How the format reads and writes what CBOR and the value tree do not share one-to-one.
    public struct Options: Sendable, Hashable {
        /// How a `Value/date(_:)` is written.
        public enum DateEncoding: Sendable, Hashable {
            /// Tag 1: seconds since 1970 as an integer when whole, else as the shortest float
            /// that holds them.
            case epochSeconds
            /// Tag 0: RFC 3339 text in UTC, with milliseconds when the date has a fraction of
            /// a second.
            case text
        }

        /// How dates are written. Default ``DateEncoding-swift.enum/epochSeconds``.
        public var dateEncoding: DateEncoding
        /// Whether maps are written deterministically (RFC 8949 §4.2.1): keys sorted by the
        /// bytes of their encoded form. Default `false`: members in the value's order.
        public var isDeterministic: Bool
        /// Whether every map with a key that is not a text string is read as
        /// `Value.tagged("cbor.map", [[key, value], …])` instead of an object with integer keys
        /// written as decimal text. Default `false`.
        public var keepsNonTextKeys: Bool
        /// The largest bignum (tags 2 and 3) read or written, in bytes of magnitude. Default
        /// 1,024 (about 2,466 decimal digits): converting between bytes and decimal text takes
        /// time quadratic in the length.
        public var maxBignumBytes: Int
        /// The deepest nesting of indefinite-length arrays and maps. Default 64.
        public var maxIndefiniteNesting: Int

        /// Creates options; each argument defaults to the value documented on its property.
        public init(dateEncoding: DateEncoding = .epochSeconds, isDeterministic: Bool = false,
                    keepsNonTextKeys: Bool = false, maxBignumBytes: Int = 1024, maxIndefiniteNesting: Int = 64) {
            self.dateEncoding = dateEncoding
            self.isDeterministic = isDeterministic
            self.keepsNonTextKeys = keepsNonTextKeys
            self.maxBignumBytes = maxBignumBytes
            self.maxIndefiniteNesting = maxIndefiniteNesting
        }
    }
}
