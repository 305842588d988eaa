/// One reference token of a JSON Pointer (RFC 6901), where `~` is written `~0` and `/` is
/// written `~1`. Read and written over the UTF-8 bytes: a token without `~` or `/`, the common
/// case, is itself.
enum JSONPointerToken {
    /// `token` as a pointer writes it (`a/b` is `a~1b`).
    static func escaped(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(token.utf8.count + 2)
        for byte in token.utf8 {
            switch byte {
            case UInt8(ascii: "~"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "0")]
            case UInt8(ascii: "/"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "1")]
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The key a written token names (`a~1b` is `a/b`); a `~` followed by neither digit stays.
    static func unescaped(_ token: some StringProtocol) -> String {
        guard token.utf8.contains(UInt8(ascii: "~")) else { return String(token) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(token.utf8.count)
        var pendingTilde = false
        for byte in token.utf8 {
            if pendingTilde {
                pendingTilde = false
                if byte == UInt8(ascii: "0") { bytes.append(UInt8(ascii: "~")); continue }
                if byte == UInt8(ascii: "1") { bytes.append(UInt8(ascii: "/")); continue }
                bytes.append(UInt8(ascii: "~"))
            }
            if byte == UInt8(ascii: "~") { pendingTilde = true } else { bytes.append(byte) }
        }
        if pendingTilde { bytes.append(UInt8(ascii: "~")) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
