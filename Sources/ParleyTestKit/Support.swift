import Foundation

/// A deterministic pseudo-random generator for reproducible hostile inputs.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Collects results from threads.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Bool] = []
    func append(_ value: Bool) { lock.withLock { stored.append(value) } }
    var values: [Bool] { lock.withLock { stored } }
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
