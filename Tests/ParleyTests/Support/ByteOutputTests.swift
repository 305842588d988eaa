import Parley
import Testing

@Suite struct ByteOutputTests {
    /// Room made before, between and after writes keeps every byte written, in order, and never
    /// counts as bytes of its own.
    @Test(arguments: [0, 1, 15, 1_024, 100_000])
    func reservedCapacityKeepsWhatWasWritten(capacity: Int) {
        let output = ByteOutput(capacity: 16)
        output.reserveCapacity(capacity)
        output.append(contentsOf: [1, 2, 3])
        output.reserveCapacity(capacity * 2)
        output.append(repeating: 9, count: 40)
        output.reserveCapacity(1)
        output.append(4)
        #expect(output.count == 44)
        #expect(output.makeArray() == [1, 2, 3] + [UInt8](repeating: 9, count: 40) + [4])
    }

    /// A number's low bytes go out most significant first, each width exactly as long as it says,
    /// whether the output has room or grows for it (the word stored is 8 bytes whatever the width).
    @Test(arguments: 1...8)
    func bigEndianNumbersTakeTheirWidth(width: Int) {
        let value: UInt64 = 0x0102_0304_0506_0708
        let expected = (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (7 - $0))) }.suffix(width)
        for prefix in [0, 15, 16] {   // an output of 16 bytes: room for the word, just past it, full
            let output = ByteOutput(capacity: 16)
            output.append(repeating: 0xEE, count: prefix)
            output.appendBigEndian(value, width: width)
            output.append(0xFF)
            #expect(output.makeArray() == [UInt8](repeating: 0xEE, count: prefix) + expected + [0xFF])
        }
    }
}
