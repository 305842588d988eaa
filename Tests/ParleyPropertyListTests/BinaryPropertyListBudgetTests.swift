import Parley
import ParleyPropertyList
import Testing

/// Shared objects in binary property lists (issue #22 row 5): copies count against the
/// expansion budget, so a small document cannot describe a tree of gigabytes.
@Suite struct BinaryPropertyListBudgetTests {
    let plist = PropertyListFormat()

    /// A `bplist00` document: object 0 is an ASCII string of `stringBytes` bytes, object *i*
    /// (1…`levels`) the array `[i-1, i-1]`; the top object is the last array.
    static func doublingDocument(stringBytes: Int, levels: Int) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.append(bytes.count)
        bytes +=
            [0x5F, 0x12] + bigEndian(stringBytes, size: 4) + [UInt8](repeating: UInt8(ascii: "x"), count: stringBytes)
        for level in 1...max(1, levels) {
            offsets.append(bytes.count)
            bytes += [0xA2] + bigEndian(level - 1, size: 2) + bigEndian(level - 1, size: 2)
        }
        let table = bytes.count
        for offset in offsets { bytes += bigEndian(offset, size: 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 2] + bigEndian(offsets.count, size: 8) + bigEndian(offsets.count - 1, size: 8)
            + bigEndian(table, size: 8)
        return bytes
    }

    static func bigEndian(_ value: Int, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    @Test func aDoublingTreeOverALargeStringStopsAtTheExpansionBudget() throws {
        // 1 MiB string, 12 levels: 4,096 copies (4 GiB) if every reference were copied freely.
        let document = Self.doublingDocument(stringBytes: 1 << 20, levels: 12)
        let error = #expect(throws: FormatError.self) { try plist.decode(document, as: "application/x-bplist") }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit?.name == "maxExpansionRatio")
    }

    @Test func sharedObjectsWithinTheBudgetStillDecode() throws {
        // 4 levels over a 1 KiB string: 16 copies, 16 KiB, well inside 64 KiB.
        let value = try plist.decode(Self.doublingDocument(stringBytes: 1_024, levels: 4), as: "application/x-bplist")
        var leaves = 0
        var pending = [value]
        while let next = pending.popLast() {
            if case .array(let items) = next { pending += items } else { leaves += 1 }
            if case .string(let text) = next { #expect(text.utf8.count == 1_024) }
        }
        #expect(leaves == 16)
    }

    @Test func theRatioIsTheLimitsOwn() throws {
        let document = Self.doublingDocument(stringBytes: 1_024, levels: 10)  // 1 MiB of copies from ~1 KB
        #expect(throws: FormatError.self) { try plist.decode(document, as: "application/x-bplist") }
        let generous = DecodingLimits(maxExpansionRatio: 2_000)
        #expect(try plist.decode(document, as: "application/x-bplist", limits: generous) != .null)
    }

    @Test func aReferenceBeyondIntIsMalformedNotATrap() throws {
        // One array whose single 8-byte reference is 0xFFFF_FFFF_FFFF_FFFF.
        var bytes = Array("bplist00".utf8)
        bytes += [0xA1] + [UInt8](repeating: 0xFF, count: 8)
        let table = bytes.count
        bytes += [8]
        bytes +=
            [0, 0, 0, 0, 0, 0, 1, 8] + Self.bigEndian(1, size: 8) + Self.bigEndian(0, size: 8)
            + Self.bigEndian(table, size: 8)
        let error = #expect(throws: FormatError.self) { try plist.decode(bytes, as: "application/x-bplist") }
        #expect(error?.code == .malformed)
    }
}
