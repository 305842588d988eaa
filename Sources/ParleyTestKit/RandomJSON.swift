/// Random JSON texts for tests that compare two paths over the same document: every kind of
/// number (64-bit integers, floats, integers and decimals beyond them, `-0`, `1e400`), strings
/// with escapes, non-ASCII text and words other formats read as something else, repeated and
/// long keys, empty and nested containers.
public enum RandomJSON {
    /// A document whose top-level value is an object, nested up to `depth` levels.
    public static func objectDocument<G: RandomNumberGenerator>(depth: Int = 5, using random: inout G) -> String {
        var text = ""
        appendObject(depth: depth, to: &text, using: &random)
        return text
    }

    private static let numbers = [
        "0", "-1", "7", "127", "128", "-33", "65535", "4294967296", "9223372036854775807", "-9223372036854775808",
        "18446744073709551615", "123456789012345678901234567890", "1.5", "-0.25", "1e3", "2.5E-3", "0.1",
        "-0", "-0.0", "1e400", "0.1000000000000000055", "3.141592653589793", "1.0", "100000000000000000000.0",
    ]

    private static let strings = [
        "", "plain", "user 1", "City 5", "00123", "yes", "No", "null", "~", "true", "1.0", "0x1F", "- item", "a: b",
        "a #b", "#x", "trailing ", " leading", "colon:", "tab\\tin", "line\\nbreak", "quote \\\" and \\\\",
        "\\u00e9t\\u00e9", "日本語", "emoji \\ud83d\\ude00", "\\u0000nul", "\\u0085nel", "2001-12-14", "@at", "`tick",
        "{braces}", "[x]", "a,b", "<<", "=", ".5", "+1", "!tag", "&anchor", "*alias", "%p", "|", ">",
    ]

    private static func appendValue<G: RandomNumberGenerator>(
        depth: Int, to text: inout String, using random: inout G
    ) {
        switch Int.random(in: 0..<(depth > 0 ? 10 : 6), using: &random) {
        case 0: text += ["null", "true", "false"].randomElement(using: &random)!
        case 1, 2: text += numbers.randomElement(using: &random)!
        case 3:
            let integer = Int64.random(in: Int64.min...Int64.max, using: &random)
            text += String(integer >> Int.random(in: 0..<63, using: &random))
        case 4: text += "\(Double.random(in: -1e6...1e6, using: &random))"
        case 5: appendString(to: &text, using: &random)
        case 6, 7: appendObject(depth: depth - 1, to: &text, using: &random)
        default: appendArray(depth: depth - 1, to: &text, using: &random)
        }
    }

    private static func appendString<G: RandomNumberGenerator>(
        to text: inout String, using random: inout G
    ) {
        text += "\""
        text += strings.randomElement(using: &random)!
        if Bool.random(using: &random) { text += "\(Int.random(in: 0..<100, using: &random))" }
        text += "\""
    }

    private static func appendObject<G: RandomNumberGenerator>(
        depth: Int, to text: inout String, using random: inout G
    ) {
        let count = [0, 1, 2, 3, 5, 8, 17, 20].randomElement(using: &random)!
        text += "{"
        for index in 0..<count {
            if index > 0 { text += "," }
            switch Int.random(in: 0..<40, using: &random) {
            case 0: text += "\"k0\""   // repeats a key now and then
            case 1:   // over YAML's implicit-key bound
                text += "\"\(String(repeating: "long", count: 260))\(index)\""
            case 2, 3: appendString(to: &text, using: &random)
            default: text += "\"k\(index)\""
            }
            text += ":"
            appendValue(depth: depth, to: &text, using: &random)
        }
        text += "}"
    }

    private static func appendArray<G: RandomNumberGenerator>(
        depth: Int, to text: inout String, using random: inout G
    ) {
        let count = [0, 1, 2, 3, 6, 16, 17].randomElement(using: &random)!
        text += "["
        for index in 0..<count {
            if index > 0 { text += "," }
            appendValue(depth: depth, to: &text, using: &random)
        }
        text += "]"
    }
}
