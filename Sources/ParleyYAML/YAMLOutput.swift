/// The YAML writer's output: a growable buffer appended to without `Array`'s work on every
/// append (a uniqueness check, and a generic copy for a run of a few bytes), handed out as one
/// `[UInt8]` at the end.
final class YAMLOutput {
    private var base: UnsafeMutablePointer<UInt8>
    /// The bytes written so far.
    private(set) var count = 0
    private var capacity: Int

    /// An empty output with room for `capacity` bytes before it grows.
    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    func append(_ byte: UInt8) {
        if count == capacity { grow(toAtLeast: count &+ 1) }
        base[count] = byte
        count &+= 1
    }

    func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let length = bytes.count
        if capacity &- count < length { grow(toAtLeast: count &+ length) }
        let target = base + count
        // A key or a short scalar is copied byte by byte: a call to copy memory costs more.
        if length <= 16 {
            for offset in 0..<length { target[offset] = source[offset] }
        } else {
            target.update(from: source, count: length)
        }
        count &+= length
    }

    /// Appends literal text.
    func append(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `spaces` spaces (an indent).
    func appendSpaces(_ spaces: Int) {
        guard spaces > 0 else { return }
        if capacity &- count < spaces { grow(toAtLeast: count &+ spaces) }
        (base + count).initialize(repeating: UInt8(ascii: " "), count: spaces)
        count &+= spaces
    }

    /// Appends a string's UTF-8 bytes.
    func append(contentsOf text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends bytes from an array.
    func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    /// Inserts `text` at `index` (at most ``count``), moving the bytes after it.
    func insert(_ text: StaticString, at index: Int) {
        let length = text.utf8CodeUnitCount
        if capacity &- count < length { grow(toAtLeast: count &+ length) }
        (base + index + length).moveInitialize(from: base + index, count: count &- index)
        (base + index).initialize(from: text.utf8Start, count: length)
        count &+= length
    }

    /// The bytes written at `range` (within ``count``), readable until the next append.
    func bytes(in range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    private func grow(toAtLeast needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
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
