/// The batch modes' output buffer, written out by ``BatchAnswer`` as it fills: each append
/// costs a capacity test and a copy, with none of `Array`'s bookkeeping (kept: gated by
/// CLI.media-type-batch-2000-lines).
final class BatchOutput {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written (private: a stored property read from outside keeps a dynamic
    /// exclusivity check on every access).
    private var length = 0

    /// The number of bytes written.
    var count: Int { length }

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    func append(_ byte: UInt8) {
        if length == capacity { grow(toHold: length + 1) }
        base[length] = byte
        length &+= 1
    }

    func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if length &+ bytes.count > capacity { grow(toHold: length + bytes.count) }
        (base + length).update(from: source, count: bytes.count)
        length &+= bytes.count
    }

    /// Drops the bytes from `offset` on (`offset` at most ``count``).
    func truncate(to offset: Int) {
        length = offset
    }

    /// Calls `body` with the bytes written.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: length))
    }

    private func grow(toHold needed: Int) {
        let grown = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        newBase.update(from: base, count: length)
        base.deallocate()
        base = newBase
        capacity = grown
    }
}
