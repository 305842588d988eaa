import Parley

/// Writing scalars and tags: when a string may stay plain, double-quoted escaping, number and
/// tag text. Shared by the block writer and the flow rendering of complex keys.
enum ScalarText {
    /// Words YAML 1.1 readers take as Booleans or null; quoted so any reader sees a string.
    private static let yaml11Words: [[UInt8]] = [
        "y", "yes", "n", "no", "on", "off", "true", "false", "null", "~", "<<", "="
    ].map { Array($0.utf8) }

    /// Whether `utf8` is one of ``yaml11Words`` in any ASCII case, compared in place (no lowercased copy).
    private static func isYAML11Word(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        yaml11Words.contains { word in
            word.count == utf8.count && zip(word, utf8).allSatisfy { expected, byte in
                let lowered = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
                return lowered == expected
            }
        }
    }

    /// Whether `string` reads back as the same string when written plain.
    ///
    /// Conservative: anything a YAML 1.2 core or 1.1 reader would take for another type (`true`,
    /// `yes`, `null`, `1.0`, `0777`, `1_000`, `2001-12-14`), anything starting with an indicator,
    /// digit or space, ending with a space or `:`, holding `: `, ` #`, a control or non-printable
    /// character (and in flow context any of `,[]{}:#`) is quoted.
    static func isPlainSafe(_ string: String, inFlow: Bool) -> Bool {
        var string = string
        return string.withUTF8 { isPlainSafe($0, inFlow: inFlow) }
    }

    /// ``isPlainSafe(_:inFlow:)-(String,_)`` for a string given as its UTF-8 bytes (valid UTF-8).
    static func isPlainSafe(_ utf8: UnsafeBufferPointer<UInt8>, inFlow: Bool) -> Bool {
        guard let first = utf8.first, let last = utf8.last else { return false }
        switch first {
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "&"),
             UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "'"),
             UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"), UInt8(ascii: " "),
             UInt8(ascii: "\t"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return false
        default:
            break
        }
        if last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") || last == UInt8(ascii: ":") { return false }
        var previous: UInt8 = 0
        var isASCII = true
        for byte in utf8 {
            if byte < 0x20 || byte == 0x7F { return false }
            if byte >= 0x80 { isASCII = false }
            if previous == UInt8(ascii: ":") && (byte == UInt8(ascii: " ")) { return false }
            if previous == UInt8(ascii: " ") && byte == UInt8(ascii: "#") { return false }
            if inFlow {
                switch byte {
                case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
                     UInt8(ascii: ":"), UInt8(ascii: "#"):
                    return false
                default: break
                }
            }
            previous = byte
        }
        if !isASCII {
            for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars where !isPrintable(scalar) {
                return false
            }
        }
        if utf8.count <= 5, isYAML11Word(utf8) { return false }
        return ScalarResolver.resolvesToString(utf8, timestamps: true)
    }

    /// Whether YAML allows `scalar` unescaped (c-printable minus BOM and line separators).
    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0x2027, 0x202A...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Appends `string` double-quoted, escaping what is not printable.
    static func appendDoubleQuoted(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x22: output.append(contentsOf: [0x5C, 0x22])
            case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
            case 0x00: output.append(contentsOf: Array("\\0".utf8))
            case 0x09: output.append(contentsOf: Array("\\t".utf8))
            case 0x0A: output.append(contentsOf: Array("\\n".utf8))
            case 0x0D: output.append(contentsOf: Array("\\r".utf8))
            case 0x1B: output.append(contentsOf: Array("\\e".utf8))
            case 0x85: output.append(contentsOf: Array("\\N".utf8))
            case 0x2028: output.append(contentsOf: Array("\\L".utf8))
            case 0x2029: output.append(contentsOf: Array("\\P".utf8))
            default:
                if isPrintable(scalar) {
                    output.append(contentsOf: String(scalar).utf8)
                } else if scalar.value < 0x100 {
                    output.append(contentsOf: Array("\\x\(hex(scalar.value, width: 2))".utf8))
                } else {
                    output.append(contentsOf: Array("\\u\(hex(scalar.value, width: 4))".utf8))
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// Appends a string plain when that is safe, double-quoted otherwise.
    static func appendString(_ string: String, inFlow: Bool, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { appendString($0, inFlow: inFlow, to: &output) }
    }

    /// ``appendString(_:inFlow:to:)-(String,_,_)`` for a string given as its UTF-8 bytes (valid UTF-8).
    static func appendString(_ utf8: UnsafeBufferPointer<UInt8>, inFlow: Bool, to output: inout [UInt8]) {
        if isPlainSafe(utf8, inFlow: inFlow) {
            output.append(contentsOf: utf8)
        } else {
            appendDoubleQuoted(String(decoding: utf8, as: UTF8.self), to: &output)
        }
    }

    /// The text of a float that reads back as the same `Double`.
    static func floatText(_ double: Double) -> String {
        if double.isNaN { return ".nan" }
        if double.isInfinite { return double < 0 ? "-.inf" : ".inf" }
        return double.description
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
