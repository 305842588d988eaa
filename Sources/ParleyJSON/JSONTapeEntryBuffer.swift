#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tape's entries while the parser writes them: a growable buffer whose memory the finished
/// ``JSONTape`` takes over, so the entries are never copied into an array of their own (and
/// appending needs no uniqueness check).
///
/// A buffer can also write into a reused tape's memory (``init(borrowing:capacity:)``), which it
/// never frees.
///
/// The memory is the C allocator's, so that growing it is `realloc`: in place when the memory
/// after it is free, as it usually is for the last allocation of a parse, instead of a copy of
/// every entry so far.
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
    /// (``grow()`` traps rather than reallocate the tape's memory).
    init(borrowing base: UnsafeMutablePointer<JSONTape.Entry>, capacity: Int) {
        self.capacity = capacity
        self.base = base
        isBorrowed = true
    }

    deinit {
        if !isBorrowed { Self.deallocate(base) }
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
    /// it can write up to that many entries. The caller frees it with ``deallocate(_:)`` (unless
    /// it is borrowed).
    consuming func take() -> UnsafeMutableBufferPointer<JSONTape.Entry> {
        let entries = UnsafeMutableBufferPointer(start: base, count: capacity)
        discard self
        return entries
    }

    private mutating func grow() {
        precondition(!isBorrowed, "a reused tape's entries grew")
        guard let larger = realloc(base, capacity * 2 * MemoryLayout<JSONTape.Entry>.stride) else {
            fatalError("out of memory for \(capacity * 2) JSON tape entries")
        }
        base = larger.assumingMemoryBound(to: JSONTape.Entry.self)
        capacity *= 2
    }

    private static func allocate(capacity: Int) -> UnsafeMutablePointer<JSONTape.Entry> {
        guard let memory = malloc(capacity * MemoryLayout<JSONTape.Entry>.stride) else {
            fatalError("out of memory for \(capacity) JSON tape entries")
        }
        return memory.bindMemory(to: JSONTape.Entry.self, capacity: capacity)
    }

    /// Frees entries a buffer allocated.
    static func deallocate(_ entries: UnsafeMutablePointer<JSONTape.Entry>) {
        free(entries)
    }
}
