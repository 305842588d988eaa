import Foundation
import NIOCore
import Logging
import ParleyGateway
import Testing

/// The access log never holds a request: a log nobody reads costs dropped lines, counted.
@Suite(.timeLimit(.minutes(2))) struct AccessLogTests {
    @Test func aLogPipeNobodyReadsDropsLinesCountsThemAndEveryRequestIsAnswered() async throws {
        let (readEnd, writeEnd) = try makePipe()
        defer { close(readEnd) }
        let writer = LogLineWriter(descriptor: writeEnd, ownsDescriptor: true, capacity: 8192)
        let accessLogger = Logger(label: "access") { BufferedLogHandler(label: $0, writer: writer) }
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, accessLogger: accessLogger, logWriters: [writer],
                                  configure: { $0.admin = HostAndPort(host: "127.0.0.1", port: 0) }) { gateway in
                // Lines of about 150 bytes: the pipe (64 KiB) and the buffer are full after about 500.
                var answered = 0
                for _ in 0..<1200 {
                    guard let answer = try? await fetch("http://\(gateway.main)/value",
                                                        headers: [("Accept", "application/json")],
                                                        timeout: .seconds(5)),
                          answer.status == 200 else { break }
                    answered += 1
                }
                #expect(answered == 1200)
                #expect(writer.droppedLines > 0)
                let metrics = try await fetch("http://\(try #require(gateway.admin))/metrics").text
                #expect(metrics.contains("parley_gateway_log_lines_dropped_total \(writer.droppedLines)"), "\(metrics)")
            }
        }
        let reader = Task.detached { readAll(readEnd) }
        writer.close(waitingAtMost: .seconds(10))
        let lines = String(decoding: await reader.value, as: UTF8.self).split(separator: "\n")
        #expect(lines.count + writer.droppedLines >= 1200)
        #expect(lines.first?.contains(" info access: request ") == true, "\(lines.first ?? "")")
        #expect(lines.first?.contains("path=/value status=200") == true)
    }
}
