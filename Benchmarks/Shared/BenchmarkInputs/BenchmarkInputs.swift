import Foundation

// Deterministic inputs shared by the benchmark suites: one generator and one API-like JSON
// document, so suites that compare formats on "the same data" really use the same data.

/// SplitMix64: a tiny deterministic generator, so every run measures the same input.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    public mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }

    /// One of `choices`.
    public mutating func pick(_ choices: [String]) -> String { choices[int(0..<choices.count)] }

    /// One of ``words``.
    public mutating func word() -> String { pick(words) }
}

/// The NATO alphabet's first twenty words: short ASCII strings.
public let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett",
                    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango"]

/// City names, most with non-ASCII letters.
public let cities = ["Zürich", "São Paulo", "Kraków", "Montréal", "Reykjavík", "Berlin", "Austin", "Osaka"]

/// An API-like document of at least `size` bytes: `[{record}, …]`.
public func makeAPIDocument(size: Int, seed: UInt64) -> [UInt8] {
    var g = SeededGenerator(seed: seed)
    var out: [UInt8] = []
    out.reserveCapacity(size + 4096)
    out.append(UInt8(ascii: "["))
    var id = 0
    while out.count < size {
        if id > 0 { out.append(UInt8(ascii: ",")) }
        let name = "\(g.pick(words).capitalized) \(g.pick(words).capitalized)"
        let tags = (0..<g.int(1..<6)).map { _ in "\"\(g.pick(words))\"" }.joined(separator: ",")
        let friends = (0..<g.int(0..<4)).map { i in
            "{\"id\":\(i + g.int(0..<1000)),\"name\":\"\(g.pick(words)) \(g.pick(words))\"}"
        }.joined(separator: ",")
        let record = """
        {"id":\(id),"guid":"\(String(g.next(), radix: 16))-\(String(g.next() & 0xFFFF, radix: 16))",\
        "isActive":\(g.next() & 1 == 0),\
        "balance":\(g.int(0..<1_000_000)).\(g.int(10..<100)),"age":\(g.int(18..<90)),"name":"\(name)",\
        "email":"\(g.pick(words)).\(g.pick(words))@example.com","tags":[\(tags)],\
        "address":{"street":"\(g.int(1..<999)) \(g.pick(words).capitalized) Street",\
        "city":"\(g.pick(cities))","zip":"\(g.int(10000..<99999))",\
        "geo":{"lat":\(g.int(-89..<89)).\(g.int(100_000..<999_999)),\
        "lng":\(g.int(-179..<179)).\(g.int(100_000..<999_999))}},\
        "friends":[\(friends)],"registered":"2024-0\(g.int(1..<10))-1\(g.int(0..<10))T0\(g.int(0..<10)):15:00Z",\
        "about":"\(g.pick(words)) \\"quoted\\" \(g.pick(words))\\n\
        \(g.pick(words)) – \(g.pick(cities)) \(g.pick(words)) \(g.pick(words))"}
        """
        out.append(contentsOf: record.utf8)
        id += 1
    }
    out.append(UInt8(ascii: "]"))
    return out
}

