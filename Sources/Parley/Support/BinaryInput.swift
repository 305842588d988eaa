/// The bytes a binary format's reader reads, and the checks it makes on them before it reads or allocates:
/// every read within the input, every declared length and count against the bytes that remain, and the items
/// and nesting depth against `DecodingLimits`. The CBOR and MessagePack readers share it.
///
/// Its methods are `@inlinable`: the readers call them for every item, and across modules an ordinary call
/// is never inlined. The type and the members those bodies use are `@usableFromInline` too: the compiler
/// serializes an `@inlinable` body for other modules only where its type is ABI-visible, and a `package`
/// type alone is not.
@usableFromInline
package struct BinaryInput {
    /// The whole input.
    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
    /// The format's name, for errors.
    @usableFromInline let format: String
    @usableFromInline let limits: DecodingLimits
    /// Where the next read starts.
    @usableFromInline package var offset = 0
    /// The items counted so far.
    @usableFromInline var items = 0

    package init(_ bytes: UnsafeBufferPointer<UInt8>, format: String, limits: DecodingLimits) {
        self.bytes = bytes
        self.format = format
        self.limits = limits
    }

    /// The bytes after `offset`.
    @inlinable
    package var remaining: Int { bytes.count - offset }

    @inlinable
    package mutating func readByte() throws(FormatError) -> UInt8 {
        guard offset < bytes.count else { throw truncated(at: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a big-endian unsigned integer of `width` (at most 8) bytes.
    @inlinable
    package mutating func readBigEndian(_ width: Int) throws(FormatError) -> UInt64 {
        guard remaining >= width else { throw truncated(at: offset) }
        var result: UInt64 = 0
        for i in offset..<(offset + width) { result = result << 8 | UInt64(bytes[i]) }
        offset += width
        return result
    }

    /// The next `length` bytes; a declared length beyond the input is `truncated` (located at the item's
    /// `start`), never allocated.
    @inlinable
    package mutating func take(_ length: UInt64,
                               at start: Int) throws(FormatError) -> Slice<UnsafeBufferPointer<UInt8>> {
        guard length <= UInt64(remaining) else { throw declaredBytes(length, at: start) }
        let count = Int(length)
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    /// A declared count of elements, each at least `bytesEach` bytes long: plausible only if the bytes that
    /// remain could hold them. `noun` names the elements in the error.
    @inlinable
    package func checkedCount(_ count: UInt64, bytesEach: Int, noun: String,
                              at start: Int) throws(FormatError) -> Int {
        guard count <= UInt64(remaining / bytesEach) else { throw declared(count, noun, at: start) }
        return Int(count)
    }

    /// Counts one item against `DecodingLimits/maxNodes`.
    @inlinable
    package mutating func countItem(at start: Int) throws(FormatError) {
        items += 1
        if items > limits.maxNodes { throw tooManyItems(at: start) }
    }

    /// Checks a container opened at `start`, `depth` levels deep, against `DecodingLimits/maxDepth`.
    @inlinable
    package func checkDepth(_ depth: Int, at start: Int) throws(FormatError) {
        if depth > limits.maxDepth { throw tooDeep(depth, at: start) }
    }

    /// The input ends inside an item that started before `position`.
    @usableFromInline
    package func truncated(at position: Int) -> FormatError {
        FormatError(.truncated, format: format, "the input ends inside an item", location: .init(byteOffset: position))
    }

    @usableFromInline
    package func malformed(_ message: String, at position: Int) -> FormatError {
        FormatError(.malformed, format: format, message, location: .init(byteOffset: position))
    }

    // The errors below are built out of line: in the inlined accessors above, building one in place would make
    // each accessor too large for the compiler to inline into the readers' loops.

    @usableFromInline
    func declaredBytes(_ length: UInt64, at start: Int) -> FormatError {
        declared("\(length) byte(s)", at: start)
    }

    @usableFromInline
    func declared(_ count: UInt64, _ noun: String, at start: Int) -> FormatError {
        declared("\(count) \(noun)", at: start)
    }

    func declared(_ what: String, at start: Int) -> FormatError {
        FormatError(.truncated, format: format, "declares \(what) but only \(remaining) byte(s) remain",
                    location: .init(byteOffset: start))
    }

    @usableFromInline
    func tooManyItems(at start: Int) -> FormatError {
        FormatError.limitExceeded(format: format, limit: "maxNodes", maximum: limits.maxNodes,
                                  location: .init(byteOffset: start))
    }

    @usableFromInline
    func tooDeep(_ depth: Int, at start: Int) -> FormatError {
        FormatError.limitExceeded(format: format, limit: "maxDepth", maximum: limits.maxDepth,
                                  actual: depth, location: .init(byteOffset: start))
    }
}
