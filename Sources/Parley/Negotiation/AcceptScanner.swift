/// Splits an `Accept` value into elements and validates each in one pass, without allocating.
///
/// The parameters of each element are read by ``ParameterScanner``, the scanner media types
/// use too; the `Accept` policy is here: an element that breaks the grammar is skipped, a
/// parameter named `q` (any case) is the weight, and a bad weight skips the element.
struct AcceptScanner: AcceptElementSource {
    struct Element: Sendable {
        var isValid = false
        var type: Range<Int> = 0..<0
        var subtype: Range<Int> = 0..<0
        var typeIsWildcard = false
        var subtypeIsWildcard = false
        /// The bytes after the subtype, up to the element's comma or the end.
        var parameters: Range<Int> = 0..<0
        /// Parameters other than `q`.
        var parameterCount = 0
        var quality: Double = 1
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The next non-empty element, or `nil` at the end. Valid elements are read in one pass;
    /// an invalid one is skipped up to the next comma outside a quoted string.
    mutating func nextElement() -> Element? {
        let n = bytes.count
        var i = position
        while i < n && (bytes[i] == UInt8(ascii: ",") || ByteClass.isWhitespace(bytes[i])) { i += 1 }
        if i >= n {
            position = n
            return nil
        }
        let start = i
        var element = Element()
        if parseElement(from: &i, into: &element) {
            element.isValid = true
            position = i < n ? i + 1 : n   // past the comma
        } else {
            // Rescan from the start so a comma inside a quoted string never splits.
            position = skipToElementEnd(from: start)
        }
        return element
    }

    /// Parses one element starting at `i`; on success leaves `i` at its comma (or the end).
    private func parseElement(from i: inout Int, into element: inout Element) -> Bool {
        let n = bytes.count
        let typeStart = i
        while i < n && ByteClass.isToken(bytes[i]) { i += 1 }
        if i == typeStart { return false }
        element.type = typeStart..<i
        let isStar = i - typeStart == 1 && bytes[typeStart] == UInt8(ascii: "*")
        if i < n && bytes[i] == UInt8(ascii: "/") {
            i += 1
            let subtypeStart = i
            while i < n && ByteClass.isToken(bytes[i]) { i += 1 }
            if i == subtypeStart { return false }
            element.subtype = subtypeStart..<i
            element.typeIsWildcard = isStar
            element.subtypeIsWildcard = i - subtypeStart == 1 && bytes[subtypeStart] == UInt8(ascii: "*")
            if element.typeIsWildcard && !element.subtypeIsWildcard { return false }
        } else if isStar {
            // Legacy clients (old Java) send a bare `*` for `*/*`.
            element.typeIsWildcard = true
            element.subtypeIsWildcard = true
        } else {
            return false
        }
        return readParameters(from: &i, into: &element)
    }

    /// Reads the parameters after an element's value (its media range or token): a parameter
    /// named `q` is the weight, the others are counted. Leaves `i` at the element's comma (or
    /// the end); `false` when they break the grammar or the weight is bad.
    private func readParameters(from i: inout Int, into element: inout Element) -> Bool {
        var parameters = ParameterScanner(bytes, from: i)
        var sawQuality = false
        // Most elements end right after their value: `isAtEnd` says so without a call to `next()`.
        scan: while !parameters.isAtEnd {
            switch parameters.next() {
            case .parameter(let parameter):
                guard Self.isQuality(bytes, parameter) else {
                    element.parameterCount += 1
                    continue
                }
                if parameter.isQuoted || sawQuality { return false }
                sawQuality = true
                guard let q = Self.parseQuality(bytes, parameter.value) else { return false }
                element.quality = q
            case .end:
                break scan
            case .failure:
                return false
            }
        }
        element.parameters = i..<parameters.position
        i = parameters.position
        return true
    }

    /// The next non-empty element of a list of tokens with weights (`Accept-Encoding`,
    /// `Accept-Charset`, `Accept-Language`: `token [ weight ]`), or `nil` at the end.
    ///
    /// The token is ``Element/type``; `*` sets ``Element/typeIsWildcard``. Parameters other than
    /// `q` are counted in ``Element/parameterCount`` and otherwise ignored. An element that
    /// breaks the grammar (no token, a bad weight) comes back invalid and is skipped up to the
    /// next comma outside a quoted string, as ``nextElement()`` does.
    mutating func nextTokenElement() -> Element? {
        let n = bytes.count
        var i = position
        while i < n && (bytes[i] == UInt8(ascii: ",") || ByteClass.isWhitespace(bytes[i])) { i += 1 }
        if i >= n {
            position = n
            return nil
        }
        let start = i
        var element = Element()
        while i < n && ByteClass.isToken(bytes[i]) { i += 1 }
        let tokenEnd = i
        if tokenEnd > start && readParameters(from: &i, into: &element) {
            element.type = start..<tokenEnd
            element.typeIsWildcard = element.type.count == 1 && bytes[start] == UInt8(ascii: "*")
            element.isValid = true
            position = i < n ? i + 1 : n
        } else {
            position = skipToElementEnd(from: start)
        }
        return element
    }

    /// Whether `parameter` is the weight: a parameter named `q` or `Q`.
    static func isQuality(_ bytes: UnsafeBufferPointer<UInt8>, _ parameter: ParameterScanner.Parameter) -> Bool {
        parameter.name.count == 1 && ByteClass.lowercased(bytes[parameter.name.lowerBound]) == UInt8(ascii: "q")
    }

    /// The position after the comma that ends the element containing `start` (outside
    /// quoted strings), or the end.
    private func skipToElementEnd(from start: Int) -> Int {
        let n = bytes.count
        var i = start
        while i < n {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") {
                // An unterminated quote swallows the rest of the field.
                guard let close = ParameterScanner.scanQuotedString(bytes, from: i, to: n).close else { return n }
                i = close
            } else if byte == UInt8(ascii: ",") {
                return i + 1
            }
            i += 1
        }
        return n
    }

    /// Reads a weight leniently: `1`, `0.5`, `.5`, `1.`, any number of decimals; `nil` when it is
    /// not a plain decimal number in 0…1.
    static func parseQuality(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var i = range.lowerBound
        let end = range.upperBound
        var integer: UInt64 = 0
        var integerDigits = 0
        while i < end, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
            if integer < 10 { integer = integer * 10 + UInt64(bytes[i] - UInt8(ascii: "0")) }
            integerDigits += 1
            i += 1
        }
        var fraction: UInt64 = 0
        var scale: Double = 1
        var fractionDigits = 0
        var tailNonZero = false
        if i < end && bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
                let digit = UInt64(bytes[i] - UInt8(ascii: "0"))
                if fractionDigits < 18 {
                    fraction = fraction * 10 + digit
                    scale *= 10
                } else if digit != 0 {
                    tailNonZero = true
                }
                fractionDigits += 1
                i += 1
            }
        }
        guard i == end, integerDigits + fractionDigits > 0 else { return nil }
        if integer > 1 || (integer == 1 && (fraction != 0 || tailNonZero)) { return nil }
        if integer == 1 { return 1 }
        if fraction == 0 && tailNonZero { return Double.leastNonzeroMagnitude }
        return Double(fraction) / scale
    }
}

/// Where negotiation reads `Accept` elements from: a scanner over the field's bytes, or the
/// elements an ``AcceptField`` stored when it scanned them.
protocol AcceptElementSource {
    /// The next non-empty element (invalid ones included when the source keeps them), or `nil`.
    mutating func nextElement() -> AcceptScanner.Element?
}

/// The valid elements an ``AcceptField`` stored, read in order.
struct StoredAcceptElements: AcceptElementSource {
    let elements: UnsafeBufferPointer<AcceptScanner.Element>
    var index = 0

    mutating func nextElement() -> AcceptScanner.Element? {
        guard index < elements.count else { return nil }
        defer { index += 1 }
        return elements[index]
    }
}
