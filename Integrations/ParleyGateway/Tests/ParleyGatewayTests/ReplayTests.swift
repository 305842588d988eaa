import Foundation
import Parley
import ParleyFixtures
import ParleyGateway
import Testing

/// `--replay DIR`: answers from recordings, offline, negotiated and transcoded like live ones.
@Suite(.timeLimit(.minutes(2))) struct ReplayTests {
    /// The repository's bundled HAR of https://api.example.org.
    static let session = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../../Fixtures/recorded/api-session.har").standardizedFileURL
    /// The document that recording is stale against: GET /users/4213 answers `login` where the
    /// document requires `username`.
    static let contract = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../../Fixtures/contracts/api-session.openapi.yaml").standardizedFileURL

    @Test func recordedAnswersAreServedAndTranscodedWithoutAnUpstream() async throws {
        let exchanges = try RecordingReader().read(path: Self.session.path).exchanges
        let exchange = try #require(exchanges.first { $0.request.url == "https://api.example.org/users/4213" })
        // Recorded gzip-coded: the replay undoes the coding before transcoding.
        let compressed = try #require(exchanges.first {
            $0.request.url == "https://api.example.org/users/4213?compressed=1"
        })
        #expect(compressed.response.headers["Content-Encoding"] == "gzip")
        try await withGateway(upstream: URL(string: "https://api.example.org")!,
                              configure: { $0.replayDirectory = Self.session }) { gateway in
            let json = try await fetch("http://\(gateway.main)/users/4213", headers: [("Accept", "application/json")])
            #expect(json.status == exchange.response.status)
            let expected = try Registry.linked.decode(exchange.response.body ?? [],
                                                      contentType: MediaType(parsing: "application/json"))
            #expect(try Registry.linked.decode(json.body, contentType: MediaType(parsing: "application/json"))
                    == expected)

            let yaml = try await fetch("http://\(gateway.main)/users/4213?compressed=1",
                                       headers: [("Accept", "application/yaml")])
            #expect(yaml.status == compressed.response.status)
            #expect(yaml.header("Content-Type") == "application/yaml; charset=utf-8")
            #expect(try Registry.linked.decode(yaml.body, contentType: MediaType(parsing: "application/yaml"))
                    == expected)

            let missing = try await fetch("http://\(gateway.main)/not/recorded",
                                          headers: [("Accept", "application/json")])
            #expect(missing.status == 502)
            #expect(missing.text.contains("no recording answers it"))
        }
    }

    @Test func withAContractAStaleRecordingIsRefusedAndAConformingOneServed() async throws {
        try await withGateway(upstream: URL(string: "https://api.example.org")!, configure: {
            $0.replayDirectory = Self.session
            $0.contract = .init(document: Self.contract)
        }) { gateway in
            let stale = try await fetch("http://\(gateway.main)/users/4213", headers: [("Accept", "application/json")])
            #expect(stale.status == 502)
            #expect(stale.text.contains("violates the contract"))
            #expect(stale.text.contains("contract-body"))
            let conforming = try await fetch("http://\(gateway.main)/users/0",
                                             headers: [("Accept", "application/json")])
            #expect(conforming.status == 404)
        }
        // Without the document the same recording is served.
        try await withGateway(upstream: URL(string: "https://api.example.org")!,
                              configure: { $0.replayDirectory = Self.session }) { gateway in
            let served = try await fetch("http://\(gateway.main)/users/4213", headers: [("Accept", "application/json")])
            #expect(served.status == 200)
        }
    }
}
