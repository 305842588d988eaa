public import Parley

extension JSONFormat {
    /// How ``JSONFormat`` reads and writes JSON.
    ///
    /// The defaults follow RFC 8259: any value may be the top-level value (fragments), nulls are
    /// kept, a body with no value is an error, and output is compact with keys in their original
    /// order.
    public struct Options: Sendable, Hashable {
        /// Whether a top-level value other than an object or array (`"text"`, `42`, `null`) is
        /// accepted. Default `true`, as RFC 8259 §2 allows any value at the top.
        public var allowsFragments: Bool
        /// Whether object members whose value is `null` are removed while decoding, at every
        /// depth, including objects nested inside arrays. Default `false`.
        ///
        /// `null` *elements of arrays* are kept, so array indices never shift, unless
        /// ``removesNullArrayElements`` is also set. A top-level `null` stays `null`.
        public var removesNullValues: Bool
        /// Whether `null` elements of arrays are removed too (shifting later indices down) when
        /// ``removesNullValues`` is set. Default `false`. Has no effect on its own.
        public var removesNullArrayElements: Bool
        /// What a body that is empty or holds only whitespace decodes to. Default
        /// ``BlankBodyPolicy/reject``.
        public var blankBody: BlankBodyPolicy
        /// Whether encoding writes object members sorted by key (by Unicode code point, so by
        /// UTF-8 bytes) instead of in their order. Default `false`.
        public var sortsKeys: Bool
        /// Whether encoding writes one member or element per line, indented by two spaces, with
        /// `": "` after keys. Default `false` (compact).
        public var isPrettyPrinted: Bool
        /// Whether `text/javascript` bodies decode as JSON, the alias AFNetworking-era servers
        /// relied on. Default `false`: `text/javascript` is JavaScript (RFC 9239), which is text.
        public var decodesJavaScriptLabels: Bool

        /// Creates options; every argument defaults to the RFC 8259 behaviour described on its
        /// property.
        public init(allowsFragments: Bool = true, removesNullValues: Bool = false,
                    removesNullArrayElements: Bool = false, blankBody: BlankBodyPolicy = .reject,
                    sortsKeys: Bool = false, isPrettyPrinted: Bool = false, decodesJavaScriptLabels: Bool = false) {
            self.allowsFragments = allowsFragments
            self.removesNullValues = removesNullValues
            self.removesNullArrayElements = removesNullArrayElements
            self.blankBody = blankBody
            self.sortsKeys = sortsKeys
            self.isPrettyPrinted = isPrettyPrinted
            self.decodesJavaScriptLabels = decodesJavaScriptLabels
        }
    }

    /// What a body that is empty or holds nothing but JSON whitespace (space, tab, CR, LF)
    /// decodes to.
    ///
    /// A response validator's `EmptyBodyPolicy` decides about zero-byte bodies before any
    /// format runs; choose ``value(_:)`` here to give bodies of only whitespace (a `"\n"` some
    /// servers send with `200`) the same treatment.
    public enum BlankBodyPolicy: Sendable, Hashable {
        /// Throw `FormatError/Code/truncated`: RFC 8259 requires a value.
        case reject
        /// Decode to this value (usually `Value/null`).
        case value(Value)
    }
}
