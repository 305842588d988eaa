/// The tape's entries while the parser writes them: a growable buffer whose memory the finished
/// ``JSONTape`` takes over, so the entries are never copied into an array of their own (and
/// appending needs no uniqueness check).
///
/// A buffer can also write into a reused tape's memory (``init(borrowing:capacity:)``), which it
/// never frees.
struct JSONTapeEntryBuffer: ~Copyable {
    private(set) var base: UnsafeMutablePointer<JSONTape.Entry>
    private var capacity: Int
    private(set) var count = 0
    /// Whether the memory is a reused tape's.
    private let isBorrowed: Bool

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        self.base = Self.allocate(capacity: self.capacity)
        isBorrowed = false
    }

    /// A buffer that writes into `base`, memory for `capacity` entries that a reused tape lends
    /// for its next document (``JSONTape/reparse(_:options:limits:offsetBase:)``). The
    /// tape lends room for as many entries as its text can have, so the buffer never grows
    /// (``grow()`` would free the tape's memory; the tape checks that it did not).
    init(borrowing base: UnsafeMutablePointer<JSONTape.Entry>, capacity: Int) {
        self.capacity = capacity
        self.base = base
        isBorrowed = true
    }

    deinit {
        if !isBorrowed { base.deallocate() }
    }

    mutating func append(_ entry: JSONTape.Entry) {
        if count == capacity { grow() }
        (base + count).initialize(to: entry)
        count &+= 1
    }

    /// The entry at `index` (`0..<count`).
    subscript(index: Int) -> JSONTape.Entry {
        get { base[index] }
        set { base[index] = newValue }
    }

    /// Hands the memory over, the written entries first: all of it, so that a tape that reuses
    /// it can write up to that many entries. The caller deallocates it (unless it is borrowed).
    consuming func take() -> UnsafeMutableBufferPointer<JSONTape.Entry> {
        let entries = UnsafeMutableBufferPointer(start: base, count: capacity)
        discard self
        return entries
    }

    private mutating func grow() {
        let larger = Self.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    private static func allocate(capacity: Int) -> UnsafeMutablePointer<JSONTape.Entry> {
        .allocate(capacity: capacity)
    }
}
