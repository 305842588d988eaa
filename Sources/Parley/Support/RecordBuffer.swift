/// A growable buffer of plain records (bytes, numbers, small structs of them) that a reader or
/// writer appends to on a hot path: appending needs no uniqueness check, and the written memory
/// can be handed over whole (``take()``) rather than copied.
///
/// The XML reader keeps its parsed tree's records in these, and the command-line tool its batch
/// answers. Its members are `@inlinable`, so each module gets them specialised for its record
/// type (kept, see Benchmarks/Gate/kept-shortcuts.md).
@frozen
public struct RecordBuffer<Record: BitwiseCopyable>: ~Copyable {
    @usableFromInline
    var base: UnsafeMutablePointer<Record>
    @usableFromInline
    var capacity: Int
    @usableFromInline
    var length = 0

    /// Creates an empty buffer with room for `capacity` records (16 at the least).
    @inlinable
    public init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    @inlinable
    deinit {
        base.deallocate()
    }

    /// The number of records written.
    @inlinable
    public var count: Int { length }

    /// Appends `record`.
    @inlinable
    public mutating func append(_ record: Record) {
        if length == capacity { grow(toAtLeast: length + 1) }
        (base + length).initialize(to: record)
        length &+= 1
    }

    /// Appends the records of `source`, which must not point into this buffer.
    @inlinable
    public mutating func append(contentsOf source: UnsafeBufferPointer<Record>) {
        guard let start = source.baseAddress, source.count > 0 else { return }
        if length &+ source.count > capacity { grow(toAtLeast: length &+ source.count) }
        (base + length).initialize(from: start, count: source.count)
        length &+= source.count
    }

    /// Appends `other`'s records from `start` on, then drops them from `other`.
    @inlinable
    public mutating func moveTail(of other: inout RecordBuffer<Record>, from start: Int) {
        append(contentsOf: UnsafeBufferPointer(start: other.base + start, count: other.length - start))
        other.length = start
    }

    /// The records written, valid until the buffer next changes.
    @inlinable
    public var records: UnsafeBufferPointer<Record> {
        UnsafeBufferPointer(start: base, count: length)
    }

    /// The record at `index` (`0..<count`).
    @inlinable
    public subscript(index: Int) -> Record {
        get { base[index] }
        set { base[index] = newValue }
    }

    /// Drops the records from `newCount` on (`newCount` at most ``count``).
    @inlinable
    public mutating func truncate(to newCount: Int) {
        length = newCount
    }

    /// Hands the written records over; the caller deallocates them. A buffer less than half
    /// full is copied into one that fits first, so kept records hold no unused reservation.
    @inlinable
    public consuming func take() -> UnsafeMutableBufferPointer<Record> {
        var base = self.base
        if capacity > 2 * length + 64 {
            let fitting = UnsafeMutablePointer<Record>.allocate(capacity: max(length, 1))
            fitting.moveInitialize(from: base, count: length)
            base.deallocate()
            base = fitting
        }
        let records = UnsafeMutableBufferPointer(start: base, count: length)
        discard self
        return records
    }

    @usableFromInline
    mutating func grow(toAtLeast needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let larger = UnsafeMutablePointer<Record>.allocate(capacity: newCapacity)
        larger.moveInitialize(from: base, count: length)
        base.deallocate()
        base = larger
        capacity = newCapacity
    }
}
