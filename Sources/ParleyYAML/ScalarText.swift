import Parley

/// Writing scalars and tags: when a string may stay plain, double-quoted escaping, number and
/// tag text. Shared by the block writer and the flow rendering of complex keys.
package enum ScalarText {
    /// Words YAML 1.1 readers take as Booleans or null; quoted so any reader sees a string. Each
    /// is packed into a word, its first byte lowest (``packedWord(_:)``), so one comparison
    /// tests a whole word.
    private static let yaml11Words: [UInt64] = [
        "y", "yes", "n", "no", "on", "off", "true", "false", "null", "~", "<<", "="
    ].map { word in
        var word = word
        return word.withUTF8 { packedWord($0) }
    }

    /// Up to eight bytes (`utf8.count` ≤ 8) in one word, the first lowest and ASCII letters
    /// lowercased; a shorter text leaves zero bytes above it.
    private static func packedWord(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var packed: UInt64 = 0
        var shift: UInt64 = 0
        for byte in utf8 {
            let lowered = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
            packed |= UInt64(lowered) &<< shift
            shift &+= 8
        }
        return packed
    }

    /// Whether `utf8`, which holds no zero byte (none of ``yaml11Words`` does), is one of them in
    /// any ASCII case.
    private static func isYAML11Word(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard utf8.count <= 5, let first = utf8.first else { return false }
        // The first two bytes and the length of each word (in either case): most short strings,
        // keys such as `name` or `tags` among them, are passed over here.
        let second = utf8.count > 1 ? utf8[1] | 0x20 : 0
        switch (first | 0x20, second, utf8.count) {
        case (UInt8(ascii: "y"), 0, 1), (UInt8(ascii: "n"), 0, 1), (UInt8(ascii: "~"), 0, 1),
             (UInt8(ascii: "="), 0, 1), (UInt8(ascii: "y"), UInt8(ascii: "e"), 3),
             (UInt8(ascii: "n"), UInt8(ascii: "o"), 2), (UInt8(ascii: "n"), UInt8(ascii: "u"), 4),
             (UInt8(ascii: "o"), UInt8(ascii: "n"), 2), (UInt8(ascii: "o"), UInt8(ascii: "f"), 3),
             (UInt8(ascii: "t"), UInt8(ascii: "r"), 4), (UInt8(ascii: "f"), UInt8(ascii: "a"), 5),
             (UInt8(ascii: "<"), UInt8(ascii: "<"), 2):
            return yaml11Words.contains(packedWord(utf8))
        default:
            return false
        }
    }

    /// Whether `string` reads back as the same string when written plain.
    ///
    /// Conservative: anything a YAML 1.2 core or 1.1 reader would take for another type (`true`,
    /// `yes`, `null`, `1.0`, `0777`, `1_000`, `2001-12-14`), anything starting with an indicator,
    /// digit or space, ending with a space or `:`, holding `: `, ` #`, a control or non-printable
    /// character (and in flow context any of `,[]{}:#`) is quoted.
    package static func isPlainSafe(_ string: String, inFlow: Bool) -> Bool {
        var string = string
        return string.withUTF8 { isPlainSafe($0, inFlow: inFlow) }
    }

    /// What the plain-scalar test needs to know of a byte: bits of ``byteClasses``.
    private enum ByteClass {
        /// Not allowed first: an indicator, a digit, a space or tab, `.` or `+` (numbers and
        /// timestamps start with a digit, sign or dot).
        static let notFirst: UInt8 = 1 << 0
        /// A C0 control (tab included) or DEL: never plain.
        static let control: UInt8 = 1 << 1
        /// One of `,[]{}:#`: not plain in flow context.
        static let flowIndicator: UInt8 = 1 << 2
        static let space: UInt8 = 1 << 3
        /// `:` or `#`, which a space next to them turns into an indicator (`: `, ` #`).
        static let colonOrHash: UInt8 = 1 << 4
        /// A byte of a non-ASCII scalar, which must be printable.
        static let nonASCII: UInt8 = 1 << 5
        /// May start a word a YAML 1.1 or core reader takes for a Boolean or null (`yes`, `~`, …).
        static let wordStart: UInt8 = 1 << 6
        /// Not allowed last: a space, tab or `:`.
        static let notLast: UInt8 = 1 << 7
    }

    /// Each byte's ``ByteClass`` bits, indexed by the byte.
    private static let byteClasses: [UInt8] = (0...255).map { (value: Int) -> UInt8 in
        let byte = UInt8(value)
        var bits: UInt8 = 0
        if Array("-?:,[]{}#&*!|>'\"%@` \t.+0123456789".utf8).contains(byte) { bits |= ByteClass.notFirst }
        if byte < 0x20 || byte == 0x7F { bits |= ByteClass.control }
        if Array(",[]{}:#".utf8).contains(byte) { bits |= ByteClass.flowIndicator }
        if byte == UInt8(ascii: " ") { bits |= ByteClass.space }
        if byte == UInt8(ascii: ":") || byte == UInt8(ascii: "#") { bits |= ByteClass.colonOrHash }
        if byte >= 0x80 { bits |= ByteClass.nonASCII }
        if Array("yYnNoOtTfF~<=".utf8).contains(byte) { bits |= ByteClass.wordStart }
        if Array(" \t:".utf8).contains(byte) { bits |= ByteClass.notLast }
        return bits
    }

    /// ``isPlainSafe(_:inFlow:)-(String,_)`` for a string given as its UTF-8 bytes (valid UTF-8).
    ///
    /// One pass gathers the classes of all the bytes (``byteClasses``); the rarer tests (a space
    /// next to `:` or `#`, non-ASCII scalars, words) run only when those classes were seen.
    package static func isPlainSafe(_ utf8: UnsafeBufferPointer<UInt8>, inFlow: Bool) -> Bool {
        guard let first = utf8.first, let last = utf8.last else { return false }
        return byteClasses.withUnsafeBufferPointer { classes in
            let firstClass = classes[Int(first)]
            if firstClass & ByteClass.notFirst != 0 || classes[Int(last)] & ByteClass.notLast != 0 { return false }
            var seen: UInt8 = 0
            for byte in utf8 { seen |= classes[Int(byte)] }
            let rejected = inFlow ? ByteClass.control | ByteClass.flowIndicator : ByteClass.control
            if seen & rejected != 0 { return false }
            if seen & ByteClass.space != 0 && seen & ByteClass.colonOrHash != 0 && holdsSpacedIndicator(utf8) {
                return false
            }
            if seen & ByteClass.nonASCII != 0 && !isPrintable(utf8) { return false }
            // No control character (so no zero byte) is left, as the word test needs. The words
            // hold every core-schema null and Boolean, and numbers and timestamps start with a
            // byte not allowed first: what is left resolves to a string (`ScalarResolver`).
            return firstClass & ByteClass.wordStart == 0 || !isYAML11Word(utf8)
        }
    }

    /// Whether `utf8` holds `: ` or ` #`.
    private static func holdsSpacedIndicator(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in utf8 {
            if previous == UInt8(ascii: ":") && byte == UInt8(ascii: " ") { return true }
            if previous == UInt8(ascii: " ") && byte == UInt8(ascii: "#") { return true }
            previous = byte
        }
        return false
    }

    /// Whether every scalar of `utf8` (valid UTF-8) is printable (``isPrintable(_:)-(Unicode.Scalar)``).
    private static func isPrintable(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < utf8.count {
            let (scalar, length) = scalar(in: utf8, at: i)
            if !isPrintable(scalar) { return false }
            i &+= length
        }
        return true
    }

    /// Whether YAML allows `scalar` unescaped (c-printable minus BOM and line separators).
    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0x2027, 0x202A...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// The scalar whose UTF-8 sequence starts at `i` in `utf8` (valid UTF-8), and the sequence's length.
    private static func scalar(in utf8: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(utf8[i])
        var value: UInt32
        let length: Int
        switch lead {
        case 0..<0x80: return (Unicode.Scalar(UInt8(lead)), 1)
        case 0xC0..<0xE0: value = lead & 0x1F; length = 2
        case 0xE0..<0xF0: value = lead & 0x0F; length = 3
        default: value = lead & 0x07; length = 4
        }
        for k in 1..<length { value = value << 6 | UInt32(utf8[i &+ k] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// Appends the string given as its UTF-8 bytes (valid UTF-8) double-quoted, escaping what is
    /// not printable: runs of printable text are copied as they are, byte for byte.
    static func appendDoubleQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to output: ByteOutput) {
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        var i = 0
        while i < utf8.count {
            let byte = utf8[i]
            if byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C {
                i &+= 1
                continue
            }
            let (scalar, length) = scalar(in: utf8, at: i)
            if byte >= 0x80 && isPrintable(scalar) {
                i &+= length
                continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
            appendEscaped(scalar, to: output)
            i &+= length
            runStart = i
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
        output.append(UInt8(ascii: "\""))
    }

    /// Appends the escape of a scalar that a double-quoted scalar cannot hold as it is (or, for
    /// `"` and `\\`, must not).
    private static func appendEscaped(_ scalar: Unicode.Scalar, to output: ByteOutput) {
        let letter: Unicode.Scalar
        switch scalar.value {
        case 0x22, 0x5C: letter = scalar
        case 0x00: letter = "0"
        case 0x09: letter = "t"
        case 0x0A: letter = "n"
        case 0x0D: letter = "r"
        case 0x1B: letter = "e"
        case 0x85: letter = "N"
        case 0x2028: letter = "L"
        case 0x2029: letter = "P"
        case 0..<0x100:
            output.append(contentsOf: "\\x\(hex(scalar.value, width: 2))")
            return
        default:
            output.append(contentsOf: "\\u\(hex(scalar.value, width: 4))")
            return
        }
        output.append(UInt8(ascii: "\\"))
        output.append(UInt8(truncatingIfNeeded: letter.value))
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// Appends a string plain when that is safe, double-quoted otherwise.
    static func appendString(_ string: String, inFlow: Bool, to output: ByteOutput) {
        var string = string
        string.withUTF8 { appendString($0, inFlow: inFlow, to: output) }
    }

    /// ``appendString(_:inFlow:to:)-(String,_,_)`` for a string given as its UTF-8 bytes (valid UTF-8).
    static func appendString(_ utf8: UnsafeBufferPointer<UInt8>, inFlow: Bool, to output: ByteOutput) {
        if isPlainSafe(utf8, inFlow: inFlow) {
            output.append(contentsOf: utf8)
        } else {
            appendDoubleQuoted(utf8, to: output)
        }
    }

    /// Whether exact number text can be written as it is (it matches the core int or float form).
    static func isNumberText(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { ScalarResolver.number($0) != nil } ?? false
    }

    /// The shortest way to write a tag: `!!name` for yaml.org tags, `!name` for local tags,
    /// `!<…>` verbatim (percent-encoded where needed) otherwise.
    static func tagText(_ tag: String) -> String {
        func isTagCharacter(_ byte: UInt8, allowingBang: Bool) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            case UInt8(ascii: "!"): return allowingBang
            // libyaml's tag scanner, which reads our output back, takes no '#' (YAML 1.2 would),
            // and reads '%' as the start of an escape (tags arrive decoded): both are
            // percent-encoded in the verbatim form instead.
            default: return Array("-;/?:@&=+$_.~*'()".utf8).contains(byte)
            }
        }
        if tag.hasPrefix(ScalarResolver.yamlTagPrefix) {
            let name = tag.utf8.dropFirst(ScalarResolver.yamlTagPrefix.utf8.count)
            if !name.isEmpty, name.allSatisfy({ isTagCharacter($0, allowingBang: false) }) {
                return "!!" + String(decoding: name, as: UTF8.self)
            }
        } else if tag.hasPrefix("!"), tag.utf8.count > 1,
                  tag.utf8.dropFirst().allSatisfy({ isTagCharacter($0, allowingBang: false) }) {
            return tag
        }
        var verbatim = "!<"
        for byte in tag.utf8 {
            if isTagCharacter(byte, allowingBang: true) || Array(",[]".utf8).contains(byte) {
                verbatim.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                verbatim += "%" + hex(UInt32(byte), width: 2)
            }
        }
        return verbatim + ">"
    }
}
