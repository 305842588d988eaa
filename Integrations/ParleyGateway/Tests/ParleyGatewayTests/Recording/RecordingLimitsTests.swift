import Foundation
import Logging
import ParleyFixtures
@testable import ParleyGateway
import Testing

/// Recording keeps within its folder's limits and says once when it cannot write (review finding 8).
@Suite(.timeLimit(.minutes(2))) struct RecordingLimitsTests {
    func makeFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-retention-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    func write(_ folder: String, _ name: String, bytes: Int, age: TimeInterval = 0) throws {
        let path = folder + "/" + name
        try Data(repeating: 65, count: bytes).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: path)
    }

    @Test func theOldestFinishedFilesGoFirstWhenThereAreTooManyOrTooManyBytes() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for index in 1...5 { try write(folder, "parley-20261128T10000\(index)Z-0001.har", bytes: 100) }
        try write(folder, "other.har", bytes: 10_000)
        var retention = RecordingRetention(directory: folder, prefix: "parley", maxFiles: 3)
        #expect(retention.sweep() == ["parley-20261128T100001Z-0001.har", "parley-20261128T100002Z-0001.har"])
        retention = RecordingRetention(directory: folder, prefix: "parley", maxBytes: 150)
        #expect(retention.sweep() == ["parley-20261128T100003Z-0001.har", "parley-20261128T100004Z-0001.har"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
                == ["other.har", "parley-20261128T100005Z-0001.har"])
    }

    @Test func filesPastTheirAgeAndStalePartialFilesAreRemoved() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(folder, "parley-20261128T100001Z-0001.har", bytes: 10, age: 7200)
        try write(folder, "parley-20261128T100002Z-0001.har", bytes: 10, age: 10)
        try write(folder, "parley-20261128T100003Z-0001.har.partial", bytes: 0, age: 600)
        try write(folder, "parley-20261128T100004Z-0001.har.partial", bytes: 50, age: 1)
        let retention = RecordingRetention(directory: folder, prefix: "parley", maxAge: .seconds(3600))
        #expect(Set(retention.sweep())
                == ["parley-20261128T100001Z-0001.har", "parley-20261128T100003Z-0001.har.partial"])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder))
                == ["parley-20261128T100002Z-0001.har", "parley-20261128T100004Z-0001.har.partial"])
    }

    @Test func maxBytesFilesAndAgeAreReadFromTheConfigurationFile() throws {
        let yaml = "upstream: http://127.0.0.1:9\nrecord:\n  directory: r\n"
            + "  max_bytes: 1000\n  max_files: 7\n  max_age: 3600\n"
        let configuration = try GatewayConfiguration(yaml: Array(yaml.utf8))
        #expect(configuration.recording?.maxBytes == 1000)
        #expect(configuration.recording?.maxFiles == 7)
        #expect(configuration.recording?.maxAge == .seconds(3600))
        #expect(throws: GatewayConfigurationError.self) {
            let bad = "upstream: http://127.0.0.1:9\nrecord:\n  directory: r\n  max_files: 0\n"
            return try GatewayConfiguration(yaml: Array(bad.utf8))
        }
    }

    /// Whether `folder` holds exactly one finished HAR file and none being written. The client
    /// has its answer before the exchange is recorded: a `.partial` file means a write is under
    /// way, and a folder removed then has that exchange written again into the folder made anew
    /// (two files where one was awaited).
    static func holdsOneFinishedFile(_ folder: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return false }
        return names.count == 1 && names.allSatisfy { $0.hasSuffix(".har") }
    }

    @Test func aRemovedFolderIsMadeAgainAndAFolderThatCannotBeWrittenLogsOnceAndCounts() async throws {
        let folder = try makeFolder()
        let logFile = folder + ".log"
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: logFile)
        }
        let writer = try LogLineWriter(.file(logFile))
        let logger = Logger(label: "gateway") { label in
            var handler = BufferedLogHandler(label: label, writer: writer)
            handler.logLevel = .notice
            return handler
        }
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, logger: logger, configure: {
                $0.recording = .init(directory: URL(fileURLWithPath: folder), maxExchangesPerFile: 1)
                $0.admin = HostAndPort(host: "127.0.0.1", port: 0)
            }) { gateway in
                #expect(try await fetch("http://\(gateway.main)/value").status == 200)
                // The exchange is recorded once its answer is sent: wait for its file to be finished
                // before the folder goes.
                #expect(await eventually { Self.holdsOneFinishedFile(folder) })
                try FileManager.default.removeItem(atPath: folder)
                #expect(try await fetch("http://\(gateway.main)/value").status == 200)
                #expect(await eventually { Self.holdsOneFinishedFile(folder) })

                // A file where the folder was: nothing can be written, every request is still answered.
                // The recorder may make the folder again at any moment, so retry until a file stands.
                var replaced = false
                for _ in 0..<50 where !replaced {
                    try? FileManager.default.removeItem(atPath: folder)
                    replaced = (try? Data().write(to: URL(fileURLWithPath: folder))) != nil
                }
                try #require(replaced)
                for _ in 0..<3 { #expect(try await fetch("http://\(gateway.main)/value").status == 200) }
                let admin = try #require(gateway.admin)
                #expect(await eventually {
                    let metrics = try? await fetch("http://\(admin)/metrics").text
                    return metrics?.contains("parley_gateway_recording_failures_total 3") == true
                })

                try FileManager.default.removeItem(atPath: folder)
                #expect(try await fetch("http://\(gateway.main)/value").status == 200)
                #expect(await eventually { Self.holdsOneFinishedFile(folder) })
            }
        }
        writer.close()
        let logged = try String(contentsOfFile: logFile, encoding: .utf8)
        #expect(logged.components(separatedBy: "recording failed").count == 2, "\(logged)")
        #expect(logged.contains("recording resumed"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.count == 1 && names.allSatisfy { $0.hasSuffix(".har") }, "\(names)")
    }
}

/// Whether `condition` holds within `limit`, asked every 20 ms.
func eventually(within limit: Duration = .seconds(5), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}
