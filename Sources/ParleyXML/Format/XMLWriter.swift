import Parley

/// Writes XML text with correct escaping into a byte buffer.
struct XMLWriter {
    var bytes: [UInt8] = []

    init(declaration: Bool) {
        if declaration { bytes.append(contentsOf: #"<?xml version="1.0" encoding="UTF-8"?>"#.utf8) }
    }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// Whether `name` is a valid qualified name: an XML `Name` with at most one colon, not at
    /// either end.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isNameStart(first), first != ":" else { return false }
        var colons = 0
        for scalar in name.unicodeScalars {
            if scalar == ":" { colons += 1; continue }
            guard isNameCharacter(scalar) else { return false }
        }
        return colons == 0 || (colons == 1 && !name.hasSuffix(":"))
    }

    private static func isNameStart(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3A, 0x41...0x5A, 0x5F, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D,
             0x37F...0x1FFF, 0x200C...0x200D, 0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF,
             0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF: true
        default: false
        }
    }

    private static func isNameCharacter(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: true
        default: isNameStart(s)
        }
    }

    /// Appends `text` escaped for character data: `&`, `<`, `>` and CR become references.
    ///
    /// - Throws: `.unsupportedValue` for a character XML 1.0 cannot hold (such as U+0000).
    mutating func text(_ text: String) throws(FormatError) {
        try XMLEscaping.append(text, for: .text, to: &bytes, format: "xml")
    }

    /// Appends `text` escaped for a double-quoted attribute value: also `"`, TAB and LF, so
    /// attribute-value normalisation gives the same string back.
    mutating func attributeValue(_ text: String) throws(FormatError) {
        try XMLEscaping.append(text, for: .attribute, to: &bytes, format: "xml")
    }
}
