/// A growable buffer of plain records while a parse writes them, whose memory the finished
/// ``ParsedTree`` takes over: appending needs no uniqueness check and nothing is copied at the end.
struct RecordBuffer<Record: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Record>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    mutating func append(_ record: Record) {
        if count == capacity { grow(toAtLeast: count + 1) }
        (base + count).initialize(to: record)
        count &+= 1
    }

    /// Appends the records of `source`, which must not point into this buffer.
    mutating func append(contentsOf source: UnsafeBufferPointer<Record>) {
        guard let start = source.baseAddress, source.count > 0 else { return }
        if count &+ source.count > capacity { grow(toAtLeast: count &+ source.count) }
        (base + count).initialize(from: start, count: source.count)
        count &+= source.count
    }

    /// Appends `other`'s records from `start` on, then drops them from `other`.
    mutating func moveTail(of other: inout RecordBuffer<Record>, from start: Int) {
        append(contentsOf: UnsafeBufferPointer(start: other.base + start, count: other.count - start))
        other.count = start
    }

    /// The records written, valid until the buffer next changes.
    var records: UnsafeBufferPointer<Record> {
        UnsafeBufferPointer(start: base, count: count)
    }

    /// The record at `index` (`0..<count`).
    subscript(index: Int) -> Record {
        get { base[index] }
        set { base[index] = newValue }
    }

    /// Drops the records from `newCount` on.
    mutating func truncate(to newCount: Int) {
        count = newCount
    }

    /// Hands the written records over; the caller deallocates them. A buffer less than half
    /// full is copied into one that fits first, so a kept tree holds no unused reservation.
    consuming func take() -> UnsafeMutableBufferPointer<Record> {
        var base = self.base
        if capacity > 2 * count + 64 {
            let fitting = UnsafeMutablePointer<Record>.allocate(capacity: max(count, 1))
            fitting.moveInitialize(from: base, count: count)
            base.deallocate()
            base = fitting
        }
        let records = UnsafeMutableBufferPointer(start: base, count: count)
        discard self
        return records
    }

    private mutating func grow(toAtLeast needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let larger = UnsafeMutablePointer<Record>.allocate(capacity: newCapacity)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = newCapacity
    }
}
