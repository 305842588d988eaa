import Foundation
import HTTPTypes
import Parley
import ParleyClient
import ParleyHTTP
import Testing
import ParleyFixtures

/// The app's own request → response → decode path, offline: the client facade over recordings.
@Suite("Replay through the client")
struct ReplayTransportTests {
    struct User: Decodable, Sendable, Equatable {
        var id: Int
        var login: String
        var tags: [String]
    }

    func client(options: ReplayOptions = ReplayOptions()) throws -> Client {
        let recordings = [try read("recorded/api-session.har"), try read("recorded/vcrpy-httpbin.yaml")]
        return Client(baseURL: URL(string: "https://api.example.org/"),
                      transport: ReplayTransport(replayer: Replayer(recordings: recordings, options: options)),
                      registry: testRegistry)
    }

    @Test("A recorded JSON response decodes into the app's type")
    func decodes() async throws {
        let response = try await client().get("users/4213", as: User.self)
        #expect(response.value == User(id: 4213, login: "ada", tags: ["math", "engines"]))
        #expect(response.response.status == .ok)
    }

    @Test("A gzip-coded recording arrives decompressed, as a live transport delivers it")
    func decompresses() async throws {
        let response = try await client().get("users/4213", parameters: ["compressed": 1], as: User.self)
        #expect(response.value.login == "ada")
        #expect(response.response.headerFields[.contentEncoding] == nil)
        #expect(response.body.first == UInt8(ascii: "{"))
    }

    @Test("A recorded error status surfaces as the typed error with its problem body")
    func errorStatus() async throws {
        let client = try client()
        do {
            _ = try await client.post("messages", parameters: ["text": "hi"])
            Issue.record("a 403 must throw")
        } catch {
            #expect(error.code == .unacceptableStatus)
            #expect(error.response?.status.code == 403)
            #expect(error.body.map { String(decoding: $0, as: UTF8.self) }?.contains("out-of-credit") == true)
        }
    }

    @Test("An unrecorded request fails with the nearest candidates")
    func unmatched() async throws {
        let client = try client()
        do {
            _ = try await client.get("users/4214")
            Issue.record("an unrecorded request must throw")
        } catch {
            #expect(error.code == .transportFailed)
            #expect(error.message.contains("nearest recorded: GET https://api.example.org/users/4213"))
        }
    }
}
