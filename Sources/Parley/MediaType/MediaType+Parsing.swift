extension MediaType {
    /// Parses one media type, such as a `Content-Type` field value.
    ///
    /// Follows RFC 9110 §5.6 and §8.3: `type "/" subtype *( OWS ";" OWS [ name "=" value ] )`
    /// with token or quoted-string values. Surrounding whitespace, empty parameters and a
    /// trailing `;` are accepted; a repeated parameter name (RFC 6838 §4.3) is not, nor more
    /// than ``maxParameterCount`` parameters.
    ///
    /// - Parameter text: The value, without the field name.
    /// - Throws: ``MediaTypeParseError`` naming what broke and the byte offset.
    /// - Complexity: O(*n*) in the length of `text` (the duplicate check compares at most
    ///   ``maxParameterCount`` names pairwise).
    public init(parsing text: String) throws(MediaTypeParseError) {
        var string = text
        let result = string.withUTF8 { MediaTypeScanner.parse(UnsafeRawBufferPointer($0)) }
        self = try result.get()
    }

    /// Parses one media type from a substring or other string-like value.
    ///
    /// - Throws: ``MediaTypeParseError`` naming what broke and the byte offset.
    public init(parsing text: some StringProtocol) throws(MediaTypeParseError) {
        try self.init(parsing: String(text))
    }

    /// Parses one media type from bytes (for example a header value straight off the wire).
    ///
    /// - Throws: ``MediaTypeParseError`` naming what broke and the byte offset.
    public init(parsing bytes: UnsafeRawBufferPointer) throws(MediaTypeParseError) {
        self = try MediaTypeScanner.parse(bytes).get()
    }

    /// The most parameters a media type may have: 64. Registered types use a handful; the bound
    /// keeps the repeated-name check (RFC 6838 §4.3) cheap for a hostile value of thousands.
    public static let maxParameterCount = 64
}

/// The single-pass scanner behind ``MediaType/init(parsing:)``.
enum MediaTypeScanner {
    static func parse(_ raw: UnsafeRawBufferPointer) -> Result<MediaType, MediaTypeParseError> {
        let bytes = raw.bindMemory(to: UInt8.self)
        let n = bytes.count
        var i = 0
        skipWhitespace(bytes, &i)
        if i == n { return .failure(MediaTypeParseError(.empty, at: i, "empty media type")) }

        let typeStart = i
        scanToken(bytes, &i)
        if i == typeStart {
            return .failure(bytes[i] == UInt8(ascii: "/")
                ? MediaTypeParseError(.missingType, at: i, "missing type before '/'")
                : unexpected(bytes, i, expecting: "a type"))
        }
        let typeEnd = i
        guard i < n, bytes[i] == UInt8(ascii: "/") else {
            if endsValueOrParameters(bytes, i) {
                return .failure(MediaTypeParseError(.missingSubtype, at: i, "missing '/' and subtype"))
            }
            return .failure(unexpected(bytes, i, expecting: "'/'"))
        }
        i += 1
        let subtypeStart = i
        scanToken(bytes, &i)
        if i == subtypeStart {
            if endsValueOrParameters(bytes, i) {
                return .failure(MediaTypeParseError(.missingSubtype, at: i, "missing subtype after '/'"))
            }
            return .failure(unexpected(bytes, i, expecting: "a subtype"))
        }
        let subtypeEnd = i
        let typeIsStar = typeEnd - typeStart == 1 && bytes[typeStart] == UInt8(ascii: "*")
        let subtypeIsStar = subtypeEnd - subtypeStart == 1 && bytes[subtypeStart] == UInt8(ascii: "*")
        if typeIsStar && !subtypeIsStar {
            let subtype = String(
                decoding: UnsafeBufferPointer(rebasing: bytes[subtypeStart..<subtypeEnd]), as: UTF8.self)
            return .failure(MediaTypeParseError(.wildcardTypeWithSubtype, at: typeStart,
                                                "'*/\(subtype)': a wildcard type needs a wildcard subtype"))
        }
        let type = lowercasedString(bytes, typeStart..<typeEnd)
        let subtype = lowercasedString(bytes, subtypeStart..<subtypeEnd)

        var parameters = MediaType.ParameterList()
        var scanner = ParameterScanner(bytes, from: i)
        scan: while !scanner.isAtEnd {
            switch scanner.next() {
            case .parameter(let parameter):
                guard parameters.count < MediaType.maxParameterCount else {
                    return .failure(MediaTypeParseError(.tooManyParameters, at: parameter.name.lowerBound,
                                                        "more than \(MediaType.maxParameterCount) parameters"))
                }
                let name = lowercasedString(bytes, parameter.name)
                if parameters.contains(where: { $0.name == name }) {
                    return .failure(MediaTypeParseError(.duplicateParameter, at: parameter.name.lowerBound,
                                                        "parameter '\(name)' given twice"))
                }
                let value: String
                if parameter.hasEscapes {
                    value = ParameterScanner.unescapedString(bytes, parameter.value)
                } else if parameter.isQuoted {
                    value = String(decoding: UnsafeBufferPointer(rebasing: bytes[parameter.value]), as: UTF8.self)
                } else {
                    value = tokenString(bytes, parameter.value)
                }
                parameters.append(MediaType.Parameter(lowercasedName: name, value: value))
            case .end:
                break scan
            case .failure(let failure):
                return .failure(error(for: failure, in: bytes))
            }
        }
        // The scanner stops at a ',' too: one media type, not a list.
        if scanner.position < n { return .failure(unexpected(bytes, scanner.position, expecting: "';' or the end")) }
        return .success(MediaType(lowercasedType: type, subtype: subtype, parameterList: parameters))
    }

    /// The error a media type reports for a parameter that breaks the grammar.
    static func error(
        for failure: ParameterScanner.Failure, in bytes: UnsafeBufferPointer<UInt8>
    ) -> MediaTypeParseError {
        let offset = failure.offset
        switch failure.kind {
        case .missingValue:
            return MediaTypeParseError(.missingParameterValue, at: offset, "parameter without '=' and a value")
        case .emptyValue:
            return MediaTypeParseError(.emptyParameterValue, at: offset, "empty parameter value")
        case .controlCharacterInQuotedString:
            return MediaTypeParseError(.controlCharacter, at: offset, "control character in a quoted string")
        case .unterminatedQuote:
            return MediaTypeParseError(.unterminatedQuote, at: offset, "quoted string is not closed")
        case .junkAfterQuotedString:
            return MediaTypeParseError(.junkAfterQuotedString, at: offset, "unexpected text after a closing quote")
        case .unexpected:
            let expected = switch failure.expected {
            case .semicolonOrEnd: "';' or the end"
            case .name: "a parameter name"
            case .equalsSign: "'='"
            case .value: "a parameter value"
            }
            return unexpected(bytes, offset, expecting: expected)
        }
    }

    /// Whether only whitespace stands between `i` and the end of the value or a `;`.
    static func endsValueOrParameters(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        var j = i
        skipWhitespace(bytes, &j)
        return j == bytes.count || bytes[j] == UInt8(ascii: ";")
    }

    @inline(__always)
    static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
        while i < bytes.count && ByteClass.isWhitespace(bytes[i]) { i += 1 }
    }

    @inline(__always)
    static func scanToken(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
        while i < bytes.count && ByteClass.isToken(bytes[i]) { i += 1 }
    }

    /// An error for a byte that is not what the grammar expects at `i`.
    static func unexpected(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int, expecting: String) -> MediaTypeParseError {
        guard i < bytes.count else {
            return MediaTypeParseError(.invalidCharacter, at: i, "unexpected end, expected \(expecting)")
        }
        let byte = bytes[i]
        if ByteClass.isControl(byte) {
            return MediaTypeParseError(
                .controlCharacter, at: i, "control character 0x\(hex(byte)), expected \(expecting)")
        }
        if byte == UInt8(ascii: ",") {
            return MediaTypeParseError(.list, at: i, "',' : a list where one media type was expected")
        }
        if byte >= 0x80 {
            return MediaTypeParseError(.invalidCharacter, at: i, "non-ASCII byte 0x\(hex(byte)), expected \(expecting)")
        }
        return MediaTypeParseError(.invalidCharacter, at: i,
                                   "unexpected '\(Character(Unicode.Scalar(byte)))', expected \(expecting)")
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    /// A lower-cased string of the ASCII bytes in `range` (small strings stay inline).
    @inline(__always)
    static func lowercasedString(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(unsafeUninitializedCapacity: range.count) { buffer in
            var k = 0
            for i in range {
                buffer[k] = ByteClass.lowercased(bytes[i])
                k += 1
            }
            return k
        }
    }

    /// A string of the ASCII token bytes in `range`, case kept.
    @inline(__always)
    static func tokenString(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(unsafeUninitializedCapacity: range.count) { buffer in
            _ = buffer.initialize(from: UnsafeBufferPointer(rebasing: bytes[range]))
            return range.count
        }
    }
}
