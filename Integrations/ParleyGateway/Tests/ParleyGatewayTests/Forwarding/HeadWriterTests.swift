import NIOCore
@testable import ParleyGateway
import Testing

/// A head written in one write: what the parts hold, whatever room it was given.
@Suite struct HeadWriterTests {
    /// Writes `parts` with `writeHead(upTo:)` given `size`, after `prefix` already in the buffer.
    private static func written(_ parts: [String], size: Int, prefix: String = "") -> String {
        var buffer = ByteBuffer(string: prefix)
        buffer.writeHead(upTo: size) { head in
            for part in parts { head.write(text: part) }
        }
        return String(buffer: buffer)
    }

    @Test(arguments: [0, 1, 10, 64, 4096])
    func theHeadHoldsEveryPartWhateverItsSize(_ size: Int) {
        let parts = ["GET / HTTP/1.1\r\n", "Cookie: " + String(repeating: "\u{FFFD}", count: 500) + "\r\n", "\r\n"]
        #expect(Self.written(parts, size: size) == parts.joined())
        #expect(Self.written(parts, size: size, prefix: "before") == "before" + parts.joined())
    }

    @Test func noPartsWriteNothing() {
        #expect(Self.written([], size: 0).isEmpty)
        #expect(Self.written([""], size: 16, prefix: "x") == "x")
    }
}
