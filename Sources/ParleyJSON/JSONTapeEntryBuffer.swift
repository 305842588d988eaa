/// The tape's entries while the parser writes them: a growable buffer whose memory the finished
/// ``JSONTape`` takes over, so the entries are never copied into an array of their own (and
/// appending needs no uniqueness check).
struct JSONTapeEntryBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<JSONTape.Entry>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        self.base = Self.allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
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

    /// Hands the written entries over; the caller deallocates them.
    consuming func take() -> UnsafeMutableBufferPointer<JSONTape.Entry> {
        let entries = UnsafeMutableBufferPointer(start: base, count: count)
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
