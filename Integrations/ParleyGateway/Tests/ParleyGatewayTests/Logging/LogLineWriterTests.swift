import Foundation
import Logging
@testable import ParleyGateway
import Testing

/// The log writer: a bounded buffer in front of a thread that does the writing.
@Suite(.timeLimit(.minutes(2))) struct LogLineWriterTests {
    @Test func submittingNeverWaitsForAPipeNobodyReadsAndEveryLineIsWrittenOrCountedAsDropped() async throws {
        let (readEnd, writeEnd) = try makePipe()
        defer { close(readEnd) }
        let writer = LogLineWriter(descriptor: writeEnd, ownsDescriptor: true, capacity: 4096)
        let line = String(repeating: "x", count: 99)
        let started = ContinuousClock.now
        for _ in 0..<100_000 { writer.submit(line) }
        // A pipe holds 64 KiB: without the buffer the loop would block after about 650 lines.
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(writer.droppedLines > 90_000)

        let reader = Task.detached { readAll(readEnd) }
        writer.close(waitingAtMost: .seconds(10))
        let written = await reader.value
        let lines = written.split(separator: 10, omittingEmptySubsequences: false).dropLast()
        #expect(written.last == 10)
        #expect(lines.allSatisfy { $0.count == 99 })
        #expect(lines.count + writer.droppedLines == 100_000)
    }

    @Test func aFileGetsEveryLineInOrderAndLinesAfterCloseAreIgnored() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID()).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("earlier\n".utf8).write(to: URL(fileURLWithPath: path))
        let writer = try LogLineWriter(.file(path))
        for number in 1...3 { writer.submit("line \(number)") }
        writer.close()
        writer.submit("too late")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "earlier\nline 1\nline 2\nline 3\n")
        #expect(writer.droppedLines == 0)
    }

    @Test func eachLineIsWrittenWhileTheWriterRunsAlsoAfterItWentIdle() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID()).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try LogLineWriter(.file(path))
        defer { writer.close() }
        var expected = ""
        for round in 1...3 {
            // A burst, then nothing until it is written: the next line must wake the writer again.
            for number in 1...50 { writer.submit("round \(round) line \(number)") }
            expected += (1...50).map { "round \(round) line \($0)\n" }.joined()
            let deadline = ContinuousClock.now + .seconds(10)
            while (try? String(contentsOfFile: path, encoding: .utf8)) != expected, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
        }
    }

    @Test func aFileThatCannotBeOpenedIsAConfigurationError() {
        #expect(throws: GatewayConfigurationError.self) { try LogLineWriter(.file("/nonexistent/folder/access.log")) }
    }

    @Test func aHandlerWritesOneLinePerMessageWithSortedQuotedMetadata() throws {
        let date = Date(timeIntervalSince1970: 1_800_000_000.25)
        let line = BufferedLogHandler.line(date: date, level: .info, label: "parley-gateway", message: "request",
                                           metadata: ["status": "200", "path": "/a b\n\"c\"", "method": "GET"])
        #expect(line == #"2027-01-15T08:00:00.250Z info parley-gateway: request method=GET "#
                + #"path="/a b\n\"c\"" status=200"#)
        #expect(BufferedLogHandler.quoted("") == #""""#)
        #expect(BufferedLogHandler.quoted("a=b") == #""a=b""#)
        #expect(BufferedLogHandler.quoted("\u{1}") == #""\u{1}""#)
        #expect(BufferedLogHandler.quoted("\t\u{7F}\r") == #""\t\u{7f}\r""#)
        #expect(BufferedLogHandler.quoted(#"a\b"#) == #""a\\b""#)
        #expect(BufferedLogHandler.quoted("é ü") == "\"é ü\"")
        #expect(BufferedLogHandler.quoted("application/json -> application/yaml")
                == #""application/json -> application/yaml""#)
        #expect(BufferedLogHandler.quoted("plain/token") == "plain/token")
    }

    @Test func aLoggerWithTheHandlerHonoursItsLevel() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID()).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try LogLineWriter(.file(path))
        var logger = Logger(label: "test") { BufferedLogHandler(label: $0, writer: writer) }
        logger.logLevel = .warning
        logger.info("hidden")
        logger.warning("shown", metadata: ["k": "v"])
        writer.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix(" warning test: shown k=v\n"), "\(text)")
        #expect(!text.contains("hidden"))
    }
}

/// A pipe's read and write descriptors.
func makePipe() throws -> (read: Int32, write: Int32) {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { throw POSIXError(.EMFILE) }
    return (descriptors[0], descriptors[1])
}

/// Everything `descriptor` gives until its end.
func readAll(_ descriptor: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        if count <= 0 { return bytes }
        bytes += chunk[..<count]
    }
}
