import Foundation
import Parley
import ParleyFixtures
import ParleyGateway
import Testing

/// `--replay DIR`: answers from recordings, offline, negotiated and transcoded like live ones.
@Suite struct ReplayTests {
    /// The repository's bundled HAR of https://api.example.org.
    static let session = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../../Fixtures/recorded/api-session.har").standardizedFileURL

    @Test func recordedAnswersAreServedAndTranscodedWithoutAnUpstream() async throws {
        let exchanges = try RecordingReader().read(path: Self.session.path).exchanges
        let exchange = try #require(exchanges.first { $0.request.url == "https://api.example.org/users/4213" })
        // Recorded gzip-coded: the replay undoes the coding before transcoding.
        let compressed = try #require(exchanges.first { $0.request.url == "https://api.example.org/users/4213?compressed=1" })
        #expect(compressed.response.headers["Content-Encoding"] == "gzip")
        try await withGateway(upstream: URL(string: "https://api.example.org")!,
                              configure: { $0.replayDirectory = Self.session }) { gateway in
            let json = try await fetch("http://\(gateway.main)/users/4213", headers: [("Accept", "application/json")])
            #expect(json.status == exchange.response.status)
            let expected = try Registry.linked.decode(exchange.response.body ?? [], contentType: MediaType(parsing: "application/json"))
            #expect(try Registry.linked.decode(json.body, contentType: MediaType(parsing: "application/json")) == expected)

            let yaml = try await fetch("http://\(gateway.main)/users/4213?compressed=1", headers: [("Accept", "application/yaml")])
            #expect(yaml.status == compressed.response.status)
            #expect(yaml.header("Content-Type") == "application/yaml; charset=utf-8")
            #expect(try Registry.linked.decode(yaml.body, contentType: MediaType(parsing: "application/yaml")) == expected)

            let missing = try await fetch("http://\(gateway.main)/not/recorded", headers: [("Accept", "application/json")])
            #expect(missing.status == 502)
            #expect(missing.text.contains("no recording answers it"))
        }
    }
}
