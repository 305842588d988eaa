import Foundation

/// SplitMix64: a deterministic pseudo-random generator, so generated inputs (hostile or
/// random cases) are the same on every run.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Counts, from many threads, decodes whose outcome differed from the expected one.
final class MismatchBox: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var total = 0
    private var first: (Int, FormatConformance.Outcome)?

    /// Records one decode: `nil` when it matched, else the body's index and what came back.
    func record(_ mismatch: (Int, FormatConformance.Outcome)?) {
        lock.withLock {
            total += 1
            guard let mismatch else { return }
            count += 1
            if first == nil { first = mismatch }
        }
    }

    /// How many differed, of how many, and the first that did.
    var summary: (count: Int, total: Int, first: (Int, FormatConformance.Outcome)?) {
        lock.withLock { (count, total, first) }
    }
}

/// Runs closures on real threads and waits for all of them.
final class DispatchGroupLite: @unchecked Sendable {
    private let condition = NSCondition()
    private var remaining: Int
    init(count: Int) { remaining = count }
    func run(_ work: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            work()
            condition.lock()
            remaining -= 1
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }
    func wait() {
        condition.lock()
        while remaining > 0 { condition.wait() }
        condition.unlock()
    }
}
