/// The one scanner for the parameters of a media type or media range and their quoted strings:
/// `*( OWS ";" OWS [ name "=" value ] )` with token or quoted-string values (RFC 9110 §5.6.4,
/// §5.6.6, §8.3.1), where OWS is SP or HTAB only.
///
/// ``MediaType/init(parsing:)-(String)`` and the `Accept` scanner both read parameters through
/// it, and differ only in what they make of the result: a media type throws at the failure's
/// offset, an `Accept` element that fails is skipped. The scanner checks the grammar alone;
/// what a parameter means (`q`, a repeated name) is the caller's policy.
///
/// A `,` where `;` or the end is expected ends the parameters, so a caller reading a list
/// (`Accept`) stops at its element's comma and a caller reading one value reports it as a list.
///
/// It works on borrowed bytes and never allocates:
/// ```swift
/// var scanner = ParameterScanner(bytes, from: afterSubtype)
/// scan: while !scanner.isAtEnd {
///     switch scanner.next() {
///     case .parameter(let parameter): ...   // name and value as ranges of `bytes`
///     case .end: break scan                 // only OWS was left
///     case .failure(let failure): ...       // failure.offset says where
///     }
/// }
/// // scanner.position is the end or a ','
/// ```
struct ParameterScanner {
    /// One `name=value` parameter, as ranges of the scanned bytes.
    struct Parameter {
        /// The name, as written (compare it ignoring ASCII case).
        var name: Range<Int>
        /// The value: a token, or the text between the quotes of a quoted string (still escaped).
        var value: Range<Int>
        /// Whether the value was a quoted string.
        var isQuoted: Bool
        /// Whether a quoted value holds a `\` quoted-pair, so it must be unescaped to be read.
        var hasEscapes: Bool
    }

    /// Why the parameters break the grammar.
    enum FailureKind: Equatable {
        /// A byte that cannot stand where it is (a control character, a non-token byte, the
        /// end); ``Failure/expected`` says what the grammar wanted there.
        case unexpected
        /// A parameter name with no `=` (followed by OWS, `;` or the end).
        case missingValue
        /// `name=` with no value (followed by OWS, `;` or the end).
        case emptyValue
        /// A control character inside a quoted string.
        case controlCharacterInQuotedString
        /// A quoted string with no closing quote; the offset is its opening quote.
        case unterminatedQuote
        /// Text other than OWS, `;`, `,` or a control character right after a closing quote.
        case junkAfterQuotedString
    }

    /// What the grammar expected where it broke, for messages.
    enum Expectation {
        case semicolonOrEnd, name, equalsSign, value
    }

    struct Failure {
        var kind: FailureKind
        var offset: Int
        var expected: Expectation
    }

    /// What ``next()`` found.
    enum Step {
        case parameter(Parameter)
        /// No more parameters: ``position`` is the end of the range or a `,`.
        case end
        case failure(Failure)
    }

    /// What ``scanQuotedString(_:from:to:)`` found.
    struct QuotedString {
        /// The index of the closing quote, or `nil` when the string is not closed.
        var close: Int?
        /// The first byte a quoted string may not hold (a control character other than HTAB,
        /// alone or after `\`), or `nil`.
        var invalidByte: Int?
        /// Whether a `\` quoted-pair occurs.
        var hasEscapes: Bool
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let end: Int
    /// Where the scan stands: after the last parameter read, or where it stopped.
    private(set) var position: Int
    private var afterQuotedString = false

    /// A scanner over `bytes[start..<end]`, which starts right after the subtype.
    init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int? = nil) {
        self.bytes = bytes
        self.position = start
        self.end = end ?? bytes.count
    }

    /// Whether the scan stands at the end of its range or at a `,`, so ``next()`` would
    /// return ``Step/end``: a cheap test for the common case of nothing after the last value.
    var isAtEnd: Bool { position == end || bytes[position] == UInt8(ascii: ",") }

    /// The next parameter, the end of the parameters, or where the grammar breaks.
    mutating func next() -> Step {
        var i = position
        defer { position = i }
        while true {
            skipWhitespace(&i)
            if i == end || bytes[i] == UInt8(ascii: ",") { return .end }
            guard bytes[i] == UInt8(ascii: ";") else {
                let kind: FailureKind = afterQuotedString && !ByteClass.isControl(bytes[i])
                    ? .junkAfterQuotedString : .unexpected
                return .failure(Failure(kind: kind, offset: i, expected: .semicolonOrEnd))
            }
            afterQuotedString = false
            i += 1
            skipWhitespace(&i)
            if i == end || bytes[i] == UInt8(ascii: ",") { return .end }
            if bytes[i] == UInt8(ascii: ";") { continue }   // an empty parameter

            let nameStart = i
            skipToken(&i)
            if i == nameStart { return .failure(Failure(kind: .unexpected, offset: i, expected: .name)) }
            let name = nameStart..<i
            guard i < end, bytes[i] == UInt8(ascii: "=") else {
                let kind: FailureKind = endsParameter(at: i) ? .missingValue : .unexpected
                return .failure(Failure(kind: kind, offset: i, expected: .equalsSign))
            }
            i += 1
            if i < end && bytes[i] == UInt8(ascii: "\"") {
                let quoted = Self.scanQuotedString(bytes, from: i, to: end)
                if let invalid = quoted.invalidByte {
                    i = invalid
                    return .failure(Failure(kind: .controlCharacterInQuotedString, offset: invalid, expected: .value))
                }
                guard let close = quoted.close else {
                    return .failure(Failure(kind: .unterminatedQuote, offset: i, expected: .value))
                }
                let value = i + 1..<close
                i = close + 1
                afterQuotedString = true
                return .parameter(Parameter(name: name, value: value, isQuoted: true, hasEscapes: quoted.hasEscapes))
            }
            let valueStart = i
            skipToken(&i)
            if i == valueStart {
                let kind: FailureKind = endsParameter(at: i) ? .emptyValue : .unexpected
                return .failure(Failure(kind: kind, offset: i, expected: .value))
            }
            return .parameter(Parameter(name: name, value: valueStart..<i, isQuoted: false, hasEscapes: false))
        }
    }

    /// Whether the parameter ends at `i`: the end, OWS or `;`.
    private func endsParameter(at i: Int) -> Bool {
        i == end || ByteClass.isWhitespace(bytes[i]) || bytes[i] == UInt8(ascii: ";")
    }

    private func skipWhitespace(_ i: inout Int) {
        while i < end && ByteClass.isWhitespace(bytes[i]) { i += 1 }
    }

    private func skipToken(_ i: inout Int) {
        while i < end && ByteClass.isToken(bytes[i]) { i += 1 }
    }

    /// Scans the quoted string whose opening quote is at `open`, up to `end`.
    ///
    /// A `\` takes the next byte whatever it is, so `\"` never closes the string; the scan
    /// goes on past an invalid byte to find the closing quote, so a lenient caller can skip the
    /// whole string while a strict one reports ``QuotedString/invalidByte``.
    static func scanQuotedString(_ bytes: UnsafeBufferPointer<UInt8>, from open: Int, to end: Int) -> QuotedString {
        var result = QuotedString(close: nil, invalidByte: nil, hasEscapes: false)
        var i = open + 1
        while i < end {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") {
                result.close = i
                return result
            }
            if byte == UInt8(ascii: "\\") {
                result.hasEscapes = true
                i += 1
                if i == end { break }
                if ByteClass.isControl(bytes[i]) && result.invalidByte == nil { result.invalidByte = i }
            } else if !ByteClass.isQuotedText(byte) && result.invalidByte == nil {
                result.invalidByte = i
            }
            i += 1
        }
        return result
    }

    /// The value of a quoted string, its quoted-pairs unescaped. `content` is the text between
    /// the quotes.
    static func unescapedString(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> String {
        String(unsafeUninitializedCapacity: content.count) { buffer in
            var k = 0
            var i = content.lowerBound
            while i < content.upperBound {
                if bytes[i] == UInt8(ascii: "\\") { i += 1 }
                buffer[k] = bytes[i]
                k += 1
                i += 1
            }
            return k
        }
    }

    /// Whether a parameter's value equals `expected` (unescaping a quoted value), comparing
    /// ASCII letters case-insensitively when `folding` is set.
    static func valueEquals(_ bytes: UnsafeBufferPointer<UInt8>, _ parameter: Parameter,
                            _ expected: UnsafeBufferPointer<UInt8>, folding: Bool) -> Bool {
        var j = 0
        var i = parameter.value.lowerBound
        while i < parameter.value.upperBound {
            var byte = bytes[i]
            if parameter.hasEscapes && byte == UInt8(ascii: "\\") {
                i += 1
                byte = bytes[i]
            }
            guard j < expected.count else { return false }
            let a = folding ? ByteClass.lowercased(byte) : byte
            let b = folding ? ByteClass.lowercased(expected[j]) : expected[j]
            if a != b { return false }
            j += 1
            i += 1
        }
        return j == expected.count
    }
}
