import Foundation
import HTTPTypes
import Logging
@testable import ParleyGateway
import Testing

/// The access log's line: what the observer writes straight to a ``BufferedLogHandler``'s writer is
/// the line the handler makes of the same metadata given through swift-log.
@Suite(.timeLimit(.minutes(2))) struct ExchangeObserverTests {
    @Test(arguments: ExchangeObserverTests.summaries)
    func theDirectAccessLineIsTheLineOfItsMetadata(_ summary: ExchangeSummary) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The second handler has metadata of its own, so its line goes through swift-log's metadata.
        let direct = try LogLineWriter(.file(directory + "/direct.log"))
        let throughMetadata = try LogLineWriter(.file(directory + "/metadata.log"))
        var handler = BufferedLogHandler(label: "access", writer: throughMetadata)
        handler.metadata = ["zz": "last"]
        for (writer, logger) in [(direct, Logger(label: "access") { BufferedLogHandler(label: $0, writer: direct) }),
                                 (throughMetadata, Logger(label: "access") { _ in handler })] {
            var observer = ExchangeObserver(logger: Logger(label: "test"), accessLogger: logger,
                                            metrics: GatewayMetrics(), recorder: nil)
            observer.urls = URLRedaction(parameters: ["token"])
            observer.finished(summary)
            writer.close()
        }
        // Each line without its timestamp (`2026-11-28T11:00:00.123Z `, 25 bytes).
        let directLine = try String(contentsOfFile: directory + "/direct.log", encoding: .utf8).dropFirst(25)
        let metadataLine = try String(contentsOfFile: directory + "/metadata.log", encoding: .utf8).dropFirst(25)
        #expect(directLine.hasPrefix("info access: request bytes_in="), "\(directLine)")
        #expect(directLine.dropLast() + " zz=last\n" == metadataLine)
    }

    static let summaries: [ExchangeSummary] = {
        let request = HTTPRequest(method: .get, scheme: "http", authority: "a", path: "/orders?token=secret&x=1")
        var plain = ExchangeSummary(request: request, response: HTTPResponse(status: .ok), started: Date())
        plain.bytesIn = 12
        plain.bytesOut = 1024
        plain.duration = .milliseconds(3.25)
        plain.upstreamLatency = .microseconds(1500)
        var transcoded = plain
        transcoded.transcoded = ExchangeSummary.Transcoding(from: "application/json", to: "application/yaml",
                                                               metrics: GatewayMetrics())
        var incomplete = plain
        incomplete.incomplete = true
        incomplete.upstreamLatency = nil
        incomplete.response = HTTPResponse(status: .badGateway)
        var quoted = plain
        quoted.request = HTTPRequest(method: .post, scheme: "http", authority: "a", path: "/a%20b/\"c\"=d")
        return [plain, transcoded, incomplete, quoted]
    }()
}
