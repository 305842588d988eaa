public import Parley

extension YAMLFormat {
    /// `application/yaml` when the body opens like YAML: a `%YAML` directive, a `---` document
    /// marker, a `key: value` line with a plain key (letters, digits, `_`, `-`, `.`) or a `- `
    /// sequence entry (after comments), or a flow collection (`{`…`}`, `[`…`]`; JSON is YAML 1.2).
    public func sniff(_ bytes: UnsafeRawBufferPointer) -> MediaType? {
        let yaml = MediaType(type: "application", subtype: "yaml")
        guard var start = TextSniffing.firstSignificantByte(bytes) else { return nil }
        // Skip comment lines.
        while bytes[start] == UInt8(ascii: "#") {
            while start < bytes.count, bytes[start] != 0x0A { start += 1 }
            while start < bytes.count, TextSniffing.isWhiteSpace(bytes[start]) { start += 1 }
            guard start < bytes.count else { return nil }
        }
        if TextSniffing.bytes(bytes, startWith: "%YAML".utf8, at: start)
            || TextSniffing.bytes(bytes, startWith: "---".utf8, at: start) {
            return yaml
        }
        if TextSniffing.bytes(bytes, startWith: "- ".utf8, at: start) { return yaml }
        if let end = TextSniffing.lastSignificantByte(bytes),
            (bytes[start], bytes[end]) == (UInt8(ascii: "{"), UInt8(ascii: "}"))
                || (bytes[start], bytes[end]) == (UInt8(ascii: "["), UInt8(ascii: "]")) {
            return yaml
        }
        // A plain key (letters, digits, `_`, `-`, `.`) then `: ` or `:` at the end of the line.
        var index = start
        guard Self.isKeyStart(bytes[index]) else { return nil }
        while index < bytes.count, Self.isKeyByte(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        let after = index + 1
        return after == bytes.count || bytes[after] == 0x20 || bytes[after] == 0x0A || bytes[after] == 0x0D ? yaml : nil
    }

    private static func isKeyStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_")
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        isKeyStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
