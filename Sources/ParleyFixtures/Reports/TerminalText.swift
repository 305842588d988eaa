/// Makes text from a recording safe to print on a terminal: control characters are shown as
/// Swift escapes (ESC as `\u{1B}`, a line feed as `\u{0A}`) instead of being sent to it, so a
/// header value cannot clear the screen, set the window title or forge a report line.
///
/// The text reporter and ``RecordingError/description`` pass every piece of recorded text
/// through it; the JSON and JUnit reporters escape through their own formats' rules.
package enum TerminalText {
    /// `text` with every control character escaped: C0 controls (tab and line feed included),
    /// DEL, C1 controls, and the bidirectional overrides and isolates that reorder what follows.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` escaped line by line: the line feeds a report puts between lines stay, everything
    /// else is escaped as by ``escaped(_:)``.
    package static func escapedKeepingLines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }
            .joined(separator: "\n")
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
