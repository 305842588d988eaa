/// A growable byte buffer for the writer: appends without per-byte capacity bookkeeping
/// through `Array`, and hands the bytes out as one `[UInt8]` at the end.
final class ByteWriter {
    private var base: UnsafeMutablePointer<UInt8>
    /// The number of bytes written.
    private var length = 0

    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    func reserve(_ extra: Int) {
        if length &+ extra > capacity { grow(to: length + extra) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: length)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    func append(_ byte: UInt8) {
        if length == capacity { grow(to: length + 1) }
        base[length] = byte
        length &+= 1
    }

    /// Appends bytes; the caller reserved room or this reserves it.
    func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + length).update(from: source, count: bytes.count)
        length &+= bytes.count
    }

    func append(literal text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    func append(text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends `value` in decimal.
    func append(decimal value: Int64) {
        reserve(20)
        var magnitude = value.magnitude
        if value < 0 { base[length] = 0x2D; length &+= 1 }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch for up to 20 digits
        let written = withUnsafeMutableBytes(of: &digits) { scratch -> Int in
            var n = 0
            repeat {
                scratch[23 - n] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
                magnitude /= 10
                n += 1
            } while magnitude != 0
            (base + length).update(from: scratch.baseAddress!.assumingMemoryBound(to: UInt8.self) + 24 - n, count: n)
            return n
        }
        length &+= written
    }

    /// The bytes written, moved into an array.
    func makeArray() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            if let target = buffer.baseAddress, length > 0 { target.update(from: base, count: length) }
            initialized = length
        }
    }
}
