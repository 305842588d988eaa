import Synchronization

/// The gateway-wide count of large bodies being buffered or transcoded, capped: what bounds
/// the memory transcoding can take.
final class TranscodeSlots: Sendable {
    let limit: Int
    private let taken = Atomic(0)

    init(limit: Int) { self.limit = limit }

    /// Takes a slot; `false` when all are taken.
    func take() -> Bool {
        var current = taken.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = taken.compareExchange(expected: current, desired: current + 1,
                                                              ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    func give() { taken.subtract(1, ordering: .acquiringAndReleasing) }
}
