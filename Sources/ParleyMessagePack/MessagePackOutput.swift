/// The MessagePack writer's output: a growable buffer appended to without `Array`'s work on
/// every append (a uniqueness check, and generic sequence code for a run of bytes), handed out
/// as one `[UInt8]` at the end.
final class MessagePackOutput {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    /// A typical API answer's size at first: smaller starts grew it several times over.
    private var capacity = 1_024

    init() {
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    func append(_ byte: UInt8) {
        if count == capacity { grow(toAtLeast: count + 1) }
        base[count] = byte
        count &+= 1
    }

    func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if capacity &- count < bytes.count { grow(toAtLeast: count + bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count &+= bytes.count
    }

    func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    /// Appends the low `width` bytes of `value`, most significant first.
    func appendBigEndian(_ value: UInt64, width: Int) {
        if capacity &- count < width { grow(toAtLeast: count + width) }
        var shift = (width - 1) * 8
        while shift >= 0 {
            base[count] = UInt8(truncatingIfNeeded: value >> UInt64(shift))
            count &+= 1
            shift -= 8
        }
    }

    private func grow(toAtLeast needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// The bytes written, copied into an array.
    func makeArray() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let target = buffer.baseAddress, count > 0 { target.initialize(from: base, count: count) }
            initialized = count
        }
    }
}
