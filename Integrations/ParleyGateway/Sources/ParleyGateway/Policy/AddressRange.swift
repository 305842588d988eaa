import Foundation

/// An IPv4 or IPv6 address block in CIDR notation (`10.0.0.0/8`, `::1/128`, or one address),
/// as `trusted_proxies` lists them.
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    /// The network's bytes (4 or 16).
    private let network: [UInt8]
    /// How many leading bits must match.
    private let prefixLength: Int

    /// Parses `ADDRESS` or `ADDRESS/BITS`.
    ///
    /// - Throws: ``GatewayConfigurationError`` for anything else.
    public init(parsing text: String) throws(GatewayConfigurationError) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.bytes(of: String(parts[0])) else {
            throw GatewayConfigurationError("'\(text)' is not an IP address or CIDR block")
        }
        let bits = bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...bits).contains(given) else {
                throw GatewayConfigurationError("'\(text)': the prefix length must be 0 to \(bits)")
            }
            length = given
        }
        network = bytes
        prefixLength = length
    }

    /// Whether `address` (text, as a socket reports it) is in the block; an IPv4-mapped IPv6
    /// address counts as its IPv4 address.
    public func contains(_ address: String) -> Bool {
        guard var bytes = Self.bytes(of: address) else { return false }
        if bytes.count == 16, network.count == 4, bytes[0..<10].allSatisfy({ $0 == 0 }),
           bytes[10] == 0xFF, bytes[11] == 0xFF {
            bytes = Array(bytes[12...])
        }
        guard bytes.count == network.count else { return false }
        var left = prefixLength
        for (byte, expected) in zip(bytes, network) where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
            if byte & mask != expected & mask { return false }
            left -= 8
        }
        return true
    }

    /// The block as `ADDRESS/BITS`.
    public var description: String {
        var text = [CChar](repeating: 0, count: 64)
        let family = network.count == 4 ? AF_INET : AF_INET6
        _ = network.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        let end = text.firstIndex(of: 0) ?? text.endIndex
        return "\(String(decoding: text[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self))/\(prefixLength)"
    }

    /// The 4 or 16 bytes of an address (IPv6 in brackets or not, without a zone), or `nil`.
    static func bytes(of text: String) -> [UInt8]? {
        var address = text
        if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        if let zone = address.firstIndex(of: "%") { address = String(address[..<zone]) }
        var v4 = [UInt8](repeating: 0, count: 4)
        if inet_pton(AF_INET, address, &v4) == 1 { return v4 }
        var v6 = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET6, address, &v6) == 1 { return v6 }
        return nil
    }
}
