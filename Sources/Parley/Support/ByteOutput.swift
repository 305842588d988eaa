#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes a text or binary format's writer writes: a growable buffer appended to on a hot path,
/// without `Array`'s work on every append (a uniqueness check, and generic sequence code for a
/// run of bytes), shared by reference among the writer's parts and handed out as one `[UInt8]`
/// at the end. The JSON, MessagePack and YAML writers share it.
///
/// Its methods are `@inlinable` for the same reason as `BinaryInput`'s: the writers call them for
/// every byte or token, from other modules. Kept: appending a run and appending an indent are
/// always inlined, which the compiler otherwise left to a call for each.
@usableFromInline
package final class ByteOutput {
    // Unchecked: a writer in another module cannot be shown to never overlap two accesses, so
    // each append would otherwise check exclusivity at run time; every access here is a plain
    // read or write of a number or pointer, none of them held across a call.
    @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline var length = 0
    @exclusivity(unchecked) @usableFromInline var capacity: Int

    /// An empty output with room for `capacity` bytes (16 at the least) before it grows.
    package init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = Self.allocate(self.capacity)
    }

    deinit { free(base) }

    /// The number of bytes written.
    @inlinable
    package var count: Int { length }

    /// Makes room for `extra` more bytes.
    @inlinable
    package func reserve(_ extra: Int) {
        reserveCapacity(length &+ extra)
    }

    /// Makes room for `minimumCapacity` bytes in all, written ones included.
    @inlinable
    package func reserveCapacity(_ minimumCapacity: Int) {
        if capacity < minimumCapacity { grow(toAtLeast: minimumCapacity) }
    }

    @inlinable
    package func append(_ byte: UInt8) {
        if length == capacity { grow(toAtLeast: length &+ 1) }
        base[length] = byte
        length &+= 1
    }

    /// Appends `bytes`, which must not point into this output.
    @inlinable @inline(__always)
    package func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let count = bytes.count
        reserve(count)
        if count <= 16 {
            RawBytes.copyShort(UnsafeRawPointer(source), to: UnsafeMutableRawPointer(base + length), count: count)
        } else {
            (base + length).update(from: source, count: count)
        }
        length &+= count
    }

    /// Appends literal text.
    @inlinable
    package func append(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 bytes.
    @inlinable
    package func append(contentsOf text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    @inlinable
    package func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    /// Appends `byte` `count` times (an indent).
    @inlinable @inline(__always)
    package func append(repeating byte: UInt8, count: Int) {
        guard count > 0 else { return }
        reserve(count)
        if count <= 16 {
            // As ``RawBytes/copyShort(_:to:count:)``, with words of `byte`s.
            let run = UInt64(byte) &* 0x0101_0101_0101_0101
            let target = UnsafeMutableRawPointer(base + length)
            if count >= 8 {
                target.storeBytes(of: run, as: UInt64.self)
                target.storeBytes(of: run, toByteOffset: count &- 8, as: UInt64.self)
            } else if count >= 4 {
                target.storeBytes(of: UInt32(truncatingIfNeeded: run), as: UInt32.self)
                target.storeBytes(of: UInt32(truncatingIfNeeded: run), toByteOffset: count &- 4, as: UInt32.self)
            } else {
                target.storeBytes(of: byte, as: UInt8.self)
                target.storeBytes(of: byte, toByteOffset: count >> 1, as: UInt8.self)
                target.storeBytes(of: byte, toByteOffset: count &- 1, as: UInt8.self)
            }
        } else {
            (base + length).initialize(repeating: byte, count: count)
        }
        length &+= count
    }

    /// Appends the low `width` bytes (1 to 8) of `value`, most significant first: stored as one
    /// word, of which the first `width` bytes are kept (kept: the gate measures it, see
    /// Benchmarks/Gate/kept-shortcuts.md).
    @inlinable
    package func appendBigEndian(_ value: UInt64, width: Int) {
        precondition(width >= 1 && width <= 8, "a big-endian number of \(width) bytes")
        reserve(8)
        let word = (value &<< UInt64(truncatingIfNeeded: (8 &- width) &* 8)).bigEndian
        UnsafeMutableRawPointer(base + length).storeBytes(of: word, as: UInt64.self)
        length &+= width
    }

    /// Appends `value` in decimal, as `String(value)` spells it, without making a string.
    @inlinable
    package func append(decimal value: Int64) {
        reserve(20)
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for a 64-bit magnitude's 20 digits
        withUnsafeMutableBytes(of: &digits) { scratch in
            var start = scratch.count
            repeat {
                start &-= 1
                scratch[start] = UInt8(truncatingIfNeeded: magnitude % 10) &+ UInt8(ascii: "0")
                magnitude /= 10
            } while magnitude != 0
            append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[start...]).assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Inserts `text` at `index` (at most ``count``), moving the bytes after it.
    package func insert(_ text: StaticString, at index: Int) {
        let count = text.utf8CodeUnitCount
        reserve(count)
        (base + index + count).moveInitialize(from: base + index, count: length &- index)
        (base + index).initialize(from: text.utf8Start, count: count)
        length &+= count
    }

    /// The bytes written at `range` (within ``count``), readable until the next append.
    @inlinable
    package func bytes(in range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// The bytes written, copied into an array.
    package func makeArray() -> [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: length))
    }

    /// Grows the memory with `realloc`: in place when the memory after it is free, as it often
    /// is for a writer's output, instead of a copy of everything written so far. Memory with
    /// nothing written in it yet (a writer reserving room for its document first) is replaced
    /// by as much as is asked for: there is nothing to keep.
    @usableFromInline
    func grow(toAtLeast needed: Int) {
        guard length > 0 else {
            free(base)
            base = Self.allocate(needed)
            capacity = needed
            return
        }
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        guard let newBase = realloc(base, newCapacity) else { fatalError("out of memory for \(newCapacity) bytes") }
        base = newBase.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    /// The C allocator's memory, which ``grow(toAtLeast:)`` reallocates.
    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = malloc(capacity) else { fatalError("out of memory for \(capacity) bytes") }
        return memory.bindMemory(to: UInt8.self, capacity: capacity)
    }
}
