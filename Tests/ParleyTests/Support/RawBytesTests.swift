import Parley
import Testing

@Suite struct RawBytesTests {
    /// Bytes that differ at every position, so a copy or comparison that skips one is seen.
    private static let source: [UInt8] = (0..<48).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }

    @Test(arguments: 0...16)
    func shortCopiesWriteExactlyTheirBytes(count: Int) {
        var target = [UInt8](repeating: 0xEE, count: 20)
        Self.source.withUnsafeBytes { source in
            target.withUnsafeMutableBytes { target in
                RawBytes.copyShort(source.baseAddress!, to: target.baseAddress! + 2, count: count)
            }
        }
        #expect(Array(target[2..<(2 + count)]) == Array(Self.source[0..<count]))
        #expect(target[0..<2].allSatisfy { $0 == 0xEE })
        #expect(target[(2 + count)...].allSatisfy { $0 == 0xEE })
    }

    @Test(arguments: 0...40)
    func runsAreEqualExactlyWhenEveryByteIs(count: Int) {
        let same = Array(Self.source[0..<count])
        let prefixEqual = same.withUnsafeBufferPointer { a in
            Self.source.withUnsafeBufferPointer { RawBytes.areEqual(a, UnsafeBufferPointer(rebasing: $0[..<count])) }
        }
        #expect(prefixEqual)
        for position in 0..<count {
            var other = same
            other[position] ^= 0x20
            let equal = other.withUnsafeBufferPointer { a in
                same.withUnsafeBufferPointer { b in RawBytes.areEqual(a, b) }
            }
            #expect(!equal, "a difference at byte \(position) of \(count)")
        }
    }

    @Test func runsOfOtherLengthsDiffer() {
        let bytes: [UInt8] = Array("keyed".utf8)
        bytes.withUnsafeBufferPointer { all in
            #expect(!RawBytes.areEqual(all, UnsafeBufferPointer(rebasing: all[0..<3])))
            let empty = UnsafeBufferPointer(rebasing: all[0..<0])
            #expect(RawBytes.areEqual(empty, UnsafeBufferPointer(rebasing: all[5...])))
        }
    }
}
