import Parley
import Testing
import ParleyFixtures

@Suite("Replaying recordings")
struct ReplayerTests {
    func recording(_ requests: [(String, String, Int)]) -> Recording {
        Recording(path: "memory", kind: .har, exchanges: requests.enumerated().map { index, request in
            RecordedExchange(index: index,
                             request: RecordedRequest(method: request.0, url: request.1, body: Array("b\(index)".utf8)),
                             response: RecordedResponse(status: request.2, body: Array("r\(index)".utf8)))
        }, byteCount: 0)
    }

    @Test("Matches by method and URL; the HAR fixture answers offline")
    func fixture() throws {
        let replayer = Replayer(recordings: [try read("recorded/api-session.har")])
        let answer = try replayer.replay(method: "post", url: "https://api.example.org/messages")
        #expect(answer.response.status == 403)
        #expect(throws: ReplayError.self) {
            try replayer.replay(method: "PUT", url: "https://api.example.org/messages")
        }
    }

    @Test("Repeated identical requests get successive recordings, then fail strictly")
    func sequential() throws {
        let replayer = Replayer(recordings: [
            recording([("GET", "https://x.org/a", 500), ("GET", "https://x.org/a", 200)]),
        ])
        #expect(try replayer.replay(method: "GET", url: "https://x.org/a").response.status == 500)
        #expect(try replayer.replay(method: "GET", url: "https://x.org/a").response.status == 200)
        #expect {
            try replayer.replay(method: "GET", url: "https://x.org/a")
        } throws: { error in
            (error as? ReplayError)?.reason == "all 2 recorded responses were already played"
        }
        replayer.rewind()
        #expect(try replayer.replay(method: "GET", url: "https://x.org/a").response.status == 500)
    }

    @Test("Query order matters unless told otherwise")
    func queryOrder() throws {
        let recorded = recording([("GET", "https://x.org/s?b=2&a=1", 200)])
        #expect(throws: ReplayError.self) {
            try Replayer(recordings: [recorded]).replay(method: "GET", url: "https://x.org/s?a=1&b=2")
        }
        let relaxed = Replayer(recordings: [recorded], options: ReplayOptions(ignoresQueryOrder: true))
        #expect(try relaxed.replay(method: "GET", url: "https://X.org/s?a=1&b=2#top").response.status == 200)
    }

    @Test("An unmatched request lists the nearest recorded candidates")
    func candidates() {
        let replayer = Replayer(recordings: [recording([
            ("GET", "https://x.org/users/1", 200), ("GET", "https://x.org/teams", 200),
            ("DELETE", "https://y.org/other/thing", 204),
        ])])
        #expect {
            try replayer.replay(method: "GET", url: "https://x.org/users/2")
        } throws: { error in
            guard let error = error as? ReplayError else { return false }
            return error.candidates.first == "GET https://x.org/users/1"
                && error.description.contains("nearest recorded")
        }
    }

    @Test("Body and header matching; lenient mode falls back to the path and repeats the last")
    func options() throws {
        let recorded = recording([("POST", "https://x.org/p?v=1", 201)])
        let byBody = Replayer(recordings: [recorded], options: ReplayOptions(matchesBody: true))
        #expect(throws: ReplayError.self) {
            try byBody.replay(method: "POST", url: "https://x.org/p?v=1", body: Array("other".utf8))
        }
        let sameBody = try byBody.replay(method: "POST", url: "https://x.org/p?v=1", body: Array("b0".utf8))
        #expect(sameBody.response.status == 201)

        let lenient = Replayer(recordings: [recorded], options: ReplayOptions(isStrict: false))
        #expect(try lenient.replay(method: "POST", url: "https://x.org/p?v=2").response.status == 201)
        #expect(try lenient.replay(method: "POST", url: "https://x.org/p?v=3").response.status == 201)
    }
}
