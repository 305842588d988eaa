import Parley
import Testing

/// `FormatError.Location(byteOffset:in:)`: the line and byte column of an offset, as the JSON and
/// property-list readers report them.
@Suite struct FormatErrorLocationTests {
    func location(_ offset: Int, in text: String) -> FormatError.Location {
        Array(text.utf8).withUnsafeBufferPointer { FormatError.Location(byteOffset: offset, in: $0) }
    }

    @Test func linesAreCountedAtLineFeedsAndColumnsInBytes() {
        #expect(location(0, in: "ab\ncd") == FormatError.Location(byteOffset: 0, line: 1, column: 1))
        #expect(location(2, in: "ab\ncd") == FormatError.Location(byteOffset: 2, line: 1, column: 3))
        #expect(location(3, in: "ab\ncd") == FormatError.Location(byteOffset: 3, line: 2, column: 1))
        #expect(location(5, in: "é\nxé") == FormatError.Location(byteOffset: 5, line: 2, column: 3))
    }

    @Test func anOffsetPastTheEndContinuesTheLastLine() {
        #expect(location(7, in: "ab\ncd") == FormatError.Location(byteOffset: 7, line: 2, column: 5))
    }
}
