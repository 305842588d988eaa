/// Bounds-checked reads of little- and big-endian integers from a body; out-of-range reads
/// return 0, so callers check lengths first where a zero would be misread.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var count: Int { bytes.count }

    func has(_ length: Int, at offset: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count && length <= bytes.count - offset
    }

    func uint8(at offset: Int) -> UInt8 {
        has(1, at: offset) ? bytes[offset] : 0
    }

    func uint16LE(at offset: Int) -> UInt16 {
        guard has(2, at: offset) else { return 0 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func uint16BE(at offset: Int) -> UInt16 {
        guard has(2, at: offset) else { return 0 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    func uint32LE(at offset: Int) -> UInt32 {
        guard has(4, at: offset) else { return 0 }
        return UInt32(uint16LE(at: offset)) | UInt32(uint16LE(at: offset + 2)) << 16
    }

    func uint32BE(at offset: Int) -> UInt32 {
        guard has(4, at: offset) else { return 0 }
        return UInt32(uint16BE(at: offset)) << 16 | UInt32(uint16BE(at: offset + 2))
    }

    func uint64LE(at offset: Int) -> UInt64 {
        guard has(8, at: offset) else { return 0 }
        return UInt64(uint32LE(at: offset)) | UInt64(uint32LE(at: offset + 4)) << 32
    }

    func uint64BE(at offset: Int) -> UInt64 {
        guard has(8, at: offset) else { return 0 }
        return UInt64(uint32BE(at: offset)) << 32 | UInt64(uint32BE(at: offset + 4))
    }

    func int32LE(at offset: Int) -> Int32 { Int32(bitPattern: uint32LE(at: offset)) }

    func slice(_ offset: Int, _ length: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
    }
}
