import Parley
import ParleyMessagePack
import Testing

/// Bad input throws a `FormatError` with the right code and offset, and never allocates from a
/// declared length.
@Suite struct MessagePackErrorTests {
    let msgpack = MessagePackFormat()

    func code(_ bytes: [UInt8], limits: DecodingLimits? = nil) -> FormatError.Code? {
        do {
            _ = try msgpack.decode(bytes, limits: limits)
            return nil
        } catch let error as FormatError {
            return error.code
        } catch {
            return FormatError.Code("not a FormatError: \(error)")
        }
    }

    @Test(arguments: [
        [], [0xCC], [0xCD, 0x01], [0xCF, 0, 0, 0], [0xCB, 0x3F], [0xA2, 0x61], [0xD9], [0xD9, 0x05, 0x61],
        [0x92, 0x01], [0x81, 0xA1, 0x61], [0xD4, 0x01], [0xC7, 0x02, 0x01, 0x00], [0xC4, 0x03, 0x01],
    ] as [[UInt8]])
    func truncatedInputIsTruncated(bytes: [UInt8]) {
        #expect(code(bytes) == .truncated)
    }

    @Test func declaredLengthsBeyondTheInputAreRefusedBeforeAllocating() {
        // str 32, bin 32 and ext 32 declaring 4 GiB; array 32 and map 32 declaring 2^32 − 1 elements.
        #expect(code([0xDB, 0xFF, 0xFF, 0xFF, 0xFF, 0x61]) == .truncated)
        #expect(code([0xC6, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]) == .truncated)
        #expect(code([0xC9, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00]) == .truncated)
        #expect(code([0xDD, 0xFF, 0xFF, 0xFF, 0xFF, 0xC0, 0xC0]) == .truncated)
        #expect(code([0xDF, 0xFF, 0xFF, 0xFF, 0xFF, 0xC0, 0xC0]) == .truncated)
        // A map needs two bytes per entry: two entries in three bytes cannot be.
        #expect(code([0x82, 0xA0, 0xC0, 0xA0]) == .truncated)
    }

    @Test func theReservedByteAndTrailingBytesAreMalformed() throws {
        #expect(code([0xC1]) == .malformed)
        #expect(code([0x91, 0xC1]) == .malformed)
        #expect(code([0x01, 0x02]) == .malformed)
        do {
            _ = try msgpack.decode([0x92, 0x01, 0x02, 0xC0])
            Issue.record("expected an error")
        } catch let error as FormatError {
            #expect(error.location?.byteOffset == 3)
        }
    }

    @Test func invalidUTF8InAStringIsInvalidText() throws {
        #expect(code([0xA2, 0xC3, 0x28]) == .invalidText)
        #expect(code([0xA3, 0xED, 0xA0, 0x80]) == .invalidText) // an encoded surrogate
        do {
            _ = try msgpack.decode([0x92, 0xA0, 0xA2, 0x61, 0xFF])
            Issue.record("expected an error")
        } catch let error as FormatError {
            #expect(error.location?.byteOffset == 4)
        }
    }

    @Test func badTimestampsAreMalformed() {
        #expect(code([0xD5, 0xFF, 0, 0]) == .malformed) // 2 bytes
        // timestamp 64 with nanoseconds 10^9 (0x3B9ACA00 << 34).
        #expect(code([0xD7, 0xFF, 0xEE, 0x6B, 0x28, 0x00, 0, 0, 0, 0]) == .malformed)
        #expect(code([0xC7, 0x0C, 0xFF, 0x3B, 0x9A, 0xCA, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]) == .malformed)
    }

    @Test func keysWithoutAnObjectKeyFormAreUnsupported() {
        #expect(code([0x81, 0xC0, 0x01]) == .unsupportedValue)
        #expect(code([0x81, 0x90, 0x01]) == .unsupportedValue)
        #expect(code([0x81, 0xC4, 0x00, 0x01]) == .unsupportedValue)
    }

    @Test func depthIsBoundedWithoutMachineStackRecursion() {
        // 200 000 nested one-element arrays: the reader must stop at maxDepth, not crash.
        let deep = Array(repeating: UInt8(0x91), count: 200_000) + [0xC0]
        #expect(code(deep) == .limitExceeded)
        // Raised on purpose, depth is only heap (the value is kept shallow enough for Swift to free).
        let thousand = Array(repeating: UInt8(0x91), count: 1_000) + [0xC0]
        #expect(code(thousand) == .limitExceeded)
        #expect(code(thousand, limits: DecodingLimits(maxDepth: 1_000)) == nil)
        let nested = Array(repeating: UInt8(0x91), count: 6) + [0xC0]
        #expect(code(nested, limits: DecodingLimits(maxDepth: 5)) == .limitExceeded)
        #expect(code(nested, limits: DecodingLimits(maxDepth: 6)) == nil)
    }

    @Test func nodeAndBodyLimitsHold() {
        #expect(code([0x93, 0x01, 0x02, 0x03], limits: DecodingLimits(maxNodes: 3)) == .limitExceeded)
        #expect(code([0x93, 0x01, 0x02, 0x03], limits: DecodingLimits(maxNodes: 4)) == nil)
        #expect(code([0x93, 0x01, 0x02, 0x03], limits: DecodingLimits(maxBodyBytes: 3)) == .limitExceeded)
    }
}
