/// XML 1.0 escaping for every writer of XML text (the XML format, XML property lists, JUnit
/// reports): the one place that knows which characters become references and which cannot
/// appear in an XML 1.0 document at all.
@usableFromInline package enum XMLEscaping {
    /// Where the escaped text goes.
    @usableFromInline package enum Context: Sendable {
        /// Character data: `&`, `<`, `>` and CR become references (a parser would turn a raw CR
        /// into LF).
        case text
        /// A double-quoted attribute value: also `"`, TAB and LF, so that attribute-value
        /// normalisation gives the same string back.
        case attribute
    }

    /// Whether `scalar` may appear in an XML 1.0 document (the `Char` production).
    @inlinable
    package static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Appends `text` escaped for `context` to `bytes` (UTF-8); a character XML 1.0 cannot
    /// carry (a C0 control other than TAB, LF and CR; U+FFFE; U+FFFF) is handed to
    /// `unrepresentable` instead, which throws or lets it be left out.
    @inlinable
    package static func append<Failure: Error>(
        _ text: String, for context: Context, to bytes: inout [UInt8],
        unrepresentable: (Unicode.Scalar) throws(Failure) -> Void
    ) throws(Failure) {
        let attribute = context == .attribute
        // Fast path: no markup byte, no control character, no lead byte of U+FFFE/U+FFFF.
        if !text.utf8.contains(where: {
            $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || ($0 == 0x22 && attribute) || $0 < 0x20 || $0 == 0xEF
        }) {
            bytes.append(contentsOf: text.utf8)
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": bytes.append(contentsOf: "&amp;".utf8)
            case "<": bytes.append(contentsOf: "&lt;".utf8)
            case ">": bytes.append(contentsOf: "&gt;".utf8)
            case "\r": bytes.append(contentsOf: "&#13;".utf8)
            case "\"" where attribute: bytes.append(contentsOf: "&quot;".utf8)
            case "\t" where attribute: bytes.append(contentsOf: "&#9;".utf8)
            case "\n" where attribute: bytes.append(contentsOf: "&#10;".utf8)
            case _ where !isXMLCharacter(scalar): try unrepresentable(scalar)
            default: UTF8.encode(scalar) { bytes.append($0) }
            }
        }
    }

    /// Appends `text` escaped for `context` to `bytes`.
    ///
    /// - Throws: `FormatError/Code/unsupportedValue`, reported for `format`, for a character
    ///   XML 1.0 cannot carry.
    @inlinable
    package static func append(_ text: String, for context: Context, to bytes: inout [UInt8],
                               format: String) throws(FormatError) {
        try append(text, for: context, to: &bytes) { (scalar) throws(FormatError) in
            throw unrepresentable(scalar, format: format)
        }
    }

    /// Checks that `text`, written unescaped (a comment, a processing instruction), holds only
    /// characters XML 1.0 can carry.
    ///
    /// - Throws: `FormatError/Code/unsupportedValue`, reported for `format`, naming the first
    ///   character it cannot.
    package static func checkRepresentable(_ text: String, format: String) throws(FormatError) {
        if let scalar = text.unicodeScalars.first(where: { !isXMLCharacter($0) }) {
            throw unrepresentable(scalar, format: format)
        }
    }

    /// The error for a character XML 1.0 cannot carry.
    @usableFromInline
    package static func unrepresentable(_ scalar: Unicode.Scalar, format: String) -> FormatError {
        FormatError(.unsupportedValue, format: format,
                    "U+\(String(scalar.value, radix: 16, uppercase: true)) cannot appear in XML 1.0")
    }

    /// `text` escaped for `context`, with the characters XML 1.0 cannot carry left out (for
    /// reports, where a lost control character beats no report).
    package static func escapedDroppingUnrepresentable(_ text: String, for context: Context) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        append(text, for: context, to: &bytes) { _ in }
        return String(decoding: bytes, as: UTF8.self)
    }
}
