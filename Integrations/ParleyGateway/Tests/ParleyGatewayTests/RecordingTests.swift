import Foundation
import NIOHTTP1
import Parley
import ParleyFixtures
import ParleyGateway
import Testing

/// Record → check → replay: what the gateway records, `parley check` passes and `--replay`
/// answers from, offline.
@Suite(.timeLimit(.minutes(2))) struct RecordingTests {
    @Test func recordedExchangesPassTheCheckAreRedactedAndReplayOffline() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-gateway-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let secretBody = #"{"user":"ada","password":"hunter2","items":[{"token":"t1"}]}"#
        let requests: [(path: String, accept: String)] = [("/value", "application/json"),
                                                          ("/value?type=application/xml", "application/yaml"),
                                                          ("/conflict", "application/json")]

        // 1. Record, live.
        let (upstreamURL, live) = try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: {
                $0.recording = .init(directory: folder, maxExchangesPerFile: 2, redactedHeaders: ["X-Api-Key"],
                                     redactedPaths: ["password", "items[*].token"],
                                     redactedQueryParameters: ["api_key"])
            }) { gateway in
                var answers: [Answer] = []
                for request in requests {
                    answers.append(try await fetch("http://\(gateway.main)\(request.path)",
                                                   headers: [("Accept", request.accept)]))
                }
                let posted = try await fetch("http://\(gateway.main)/login?access_token=qt0k&api_key=qk3y&lang=en",
                                             method: .POST,
                                             headers: [("Content-Type", "application/json"),
                                                       ("Authorization", "Bearer s3cr3t"),
                                                       ("X-Api-Key", "k3y"), ("Accept", "application/json")],
                                             body: Array(secretBody.utf8))
                #expect(posted.status == 201)
                return (upstream, answers)
            }
        }

        // 2. Check: every file is a whole HAR (two exchanges a file), every exchange passes strictly.
        let files = try FixtureFiles.discover([folder.path])
        #expect(files.count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { $0.hasSuffix(".har") })
        let checker = FixtureChecker(options: CheckOptions(registry: .linked, isStrict: true))
        var checked = 0
        for file in files {
            let check = checker.check(file)
            #expect(check.readError == nil)
            #expect(!check.fails(strict: true), "\(check.exchanges.map(\.findings))")
            checked += check.exchanges.count
        }
        #expect(checked == 4)
        let recorded = try files.map { try String(contentsOfFile: $0.path, encoding: .utf8) }.joined()
        for secret in ["s3cr3t", "k3y", "hunter2", "t1\\\"", "qt0k", "qk3y"] {
            #expect(!recorded.contains(secret), "\(secret) was recorded")
        }
        #expect(recorded.contains("/login?access_token=REDACTED&api_key=REDACTED&lang=en"))
        #expect(recorded.contains("REDACTED"))
        // The upstream's URL, as the upstream was asked.
        #expect(recorded.contains("\(upstreamURL.absoluteString)/value"))

        // 3. Replay, offline (the upstream is gone): the same answers, negotiated and transcoded again.
        try await withGateway(upstream: upstreamURL, configure: { $0.replayDirectory = folder }) { gateway in
            for (request, answer) in zip(requests, live) {
                let replayed = try await fetch("http://\(gateway.main)\(request.path)",
                                               headers: [("Accept", request.accept)])
                #expect(replayed.status == answer.status, "\(request.path)")
                #expect(replayed.body == answer.body, "\(request.path)")
                #expect(replayed.header("Content-Type") == answer.header("Content-Type"))
            }
        }
    }
}
