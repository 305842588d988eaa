/// Splits an `Accept` value into elements and validates each in one pass, without allocating.
struct AcceptScanner {
    struct Element {
        var isValid = false
        var type: Range<Int> = 0..<0
        var subtype: Range<Int> = 0..<0
        var typeIsWildcard = false
        var subtypeIsWildcard = false
        /// The bytes after the subtype, up to the end of the element.
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
        let parametersStart = i
        var parametersEnd = i
        var sawQuality = false
        while true {
            while i < n && ByteClass.isWhitespace(bytes[i]) { i += 1 }
            if i == n || bytes[i] == UInt8(ascii: ",") { break }
            guard bytes[i] == UInt8(ascii: ";") else { return false }
            i += 1
            parametersEnd = i
            while i < n && ByteClass.isWhitespace(bytes[i]) { i += 1 }
            if i == n || bytes[i] == UInt8(ascii: ",") { break }
            if bytes[i] == UInt8(ascii: ";") { continue }
            let nameStart = i
            while i < n && ByteClass.isToken(bytes[i]) { i += 1 }
            if i == nameStart || i == n || bytes[i] != UInt8(ascii: "=") { return false }
            let isQuality = i - nameStart == 1 && bytes[nameStart] | 0x20 == UInt8(ascii: "q")
            i += 1
            if i < n && bytes[i] == UInt8(ascii: "\"") {
                if isQuality { return false }
                i += 1
                var closed = false
                while i < n {
                    let byte = bytes[i]
                    if byte == UInt8(ascii: "\\") {
                        i += 1
                        if i >= n || ByteClass.isControl(bytes[i]) { return false }
                    } else if byte == UInt8(ascii: "\"") {
                        closed = true
                        break
                    } else if !ByteClass.isQuotedText(byte) {
                        return false
                    }
                    i += 1
                }
                if !closed { return false }
                i += 1
            } else {
                let valueStart = i
                while i < n && ByteClass.isToken(bytes[i]) { i += 1 }
                if i == valueStart { return false }
                if isQuality {
                    if sawQuality { return false }
                    sawQuality = true
                    guard let q = AcceptScanner.parseQuality(bytes, valueStart..<i) else { return false }
                    element.quality = q
                }
            }
            if !isQuality { element.parameterCount += 1 }
            parametersEnd = i
        }
        element.parameters = parametersStart..<parametersEnd
        return true
    }

    /// The position after the comma that ends the element containing `start` (outside
    /// quoted strings), or the end.
    private func skipToElementEnd(from start: Int) -> Int {
        let n = bytes.count
        var i = start
        var inQuotes = false
        while i < n {
            let byte = bytes[i]
            if inQuotes {
                if byte == UInt8(ascii: "\\") { i += 2; continue }
                if byte == UInt8(ascii: "\"") { inQuotes = false }
            } else if byte == UInt8(ascii: "\"") {
                inQuotes = true
            } else if byte == UInt8(ascii: ",") {
                return i + 1
            }
            i += 1
        }
        return n
    }

    /// Scans `*( OWS ";" OWS [ name "=" value ] )` in `range`, calling `visit` for each
    /// parameter; returns `false` when the grammar breaks.
    @discardableResult
    static func scanParameters(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                               _ visit: (_ name: Range<Int>, _ value: Range<Int>, _ quoted: Bool) -> Void) -> Bool {
        var i = range.lowerBound
        let end = range.upperBound
        while true {
            while i < end && ByteClass.isWhitespace(bytes[i]) { i += 1 }
            if i == end { return true }
            guard bytes[i] == UInt8(ascii: ";") else { return false }
            i += 1
            while i < end && ByteClass.isWhitespace(bytes[i]) { i += 1 }
            if i == end { return true }
            if bytes[i] == UInt8(ascii: ";") { continue }
            let nameStart = i
            while i < end && ByteClass.isToken(bytes[i]) { i += 1 }
            if i == nameStart || i == end || bytes[i] != UInt8(ascii: "=") { return false }
            let name = nameStart..<i
            i += 1
            if i < end && bytes[i] == UInt8(ascii: "\"") {
                i += 1
                let valueStart = i
                var closed = false
                while i < end {
                    let byte = bytes[i]
                    if byte == UInt8(ascii: "\\") {
                        i += 1
                        if i >= end || ByteClass.isControl(bytes[i]) { return false }
                    } else if byte == UInt8(ascii: "\"") {
                        closed = true
                        break
                    } else if !ByteClass.isQuotedText(byte) {
                        return false
                    }
                    i += 1
                }
                if !closed { return false }
                visit(name, valueStart..<i, true)
                i += 1
                // Only OWS then ';' or the end may follow a closing quote.
                var j = i
                while j < end && ByteClass.isWhitespace(bytes[j]) { j += 1 }
                if j < end && bytes[j] != UInt8(ascii: ";") { return false }
            } else {
                let valueStart = i
                while i < end && ByteClass.isToken(bytes[i]) { i += 1 }
                if i == valueStart { return false }
                visit(name, valueStart..<i, false)
            }
        }
    }

    /// Calls `visit` for each parameter of an element already validated.
    static func forEachParameter(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                                 _ visit: (_ name: Range<Int>, _ value: Range<Int>, _ quoted: Bool) -> Void) {
        scanParameters(bytes, range, visit)
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

    /// Whether a parameter value in the header equals `expected`, unescaping a quoted value.
    static func valueEquals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, quoted: Bool,
                            _ expected: UnsafeBufferPointer<UInt8>, folding: Bool) -> Bool {
        var j = 0
        var i = range.lowerBound
        while i < range.upperBound {
            var byte = bytes[i]
            if quoted && byte == UInt8(ascii: "\\") {
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
