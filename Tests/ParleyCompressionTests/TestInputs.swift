import Foundation
import ParleyTestKit

enum TestInputs {
    /// An API-like JSON array of records, `size` bytes or a little more.
    static func jsonLike(size: Int, seed: UInt64 = 1) -> [UInt8] {
        var g = SplitMix64(seed: seed)
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "Zürich", "São Paulo"]
        var out: [UInt8] = Array("[".utf8)
        var id = 0
        while out.count < size {
            if id > 0 { out.append(UInt8(ascii: ",")) }
            let record =
                #"{"id":\#(id),"name":"\#(words[Int(g.next() % 10)]) \#(words[Int(g.next() % 10)])","#
                + #""balance":\#(g.next() % 1_000_000).\#(g.next() % 100),"active":\#(g.next() & 1 == 0),"#
                + #""tags":["\#(words[Int(g.next() % 10)])","\#(words[Int(g.next() % 10)])"]}"#
            out.append(contentsOf: record.utf8)
            id += 1
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// `count` bytes no coding can shrink.
    static func random(count: Int, seed: UInt64 = 2) -> [UInt8] {
        var g = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: g.next()) }
    }

    /// A file of `Resources` (see its README for how each was made).
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Resources/\(name)")
        return try [UInt8](Data(contentsOf: url))
    }

    /// The process's peak resident size so far, in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}
