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
}
