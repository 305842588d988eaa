/// Colours for outcomes on a terminal (ANSI SGR escape sequences), or none at all.
///
/// The command line decides whether a stream gets colour (a terminal, `NO_COLOR`, `--color`);
/// reporters and the progress line only ask the style to mark text. With ``plain`` every
/// function returns its text unchanged, so piped output holds no escape sequence.
package struct TerminalStyle: Sendable, Equatable {
    /// Whether text is coloured.
    package let isColored: Bool

    /// No colour.
    package static let plain = TerminalStyle(isColored: false)
    /// Colour.
    package static let colored = TerminalStyle(isColored: true)

    /// A failure: bold red.
    package func failure(_ text: String) -> String { paint(text, "1;31") }
    /// A warning: yellow.
    package func warning(_ text: String) -> String { paint(text, "33") }
    /// A pass: green.
    package func success(_ text: String) -> String { paint(text, "32") }
    /// A note or other secondary text: dim.
    package func secondary(_ text: String) -> String { paint(text, "2") }

    private func paint(_ text: String, _ code: String) -> String {
        isColored && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
