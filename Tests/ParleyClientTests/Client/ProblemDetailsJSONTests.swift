import Foundation
import HTTPTypes
import Parley
import ParleyHTTP
import ParleyClient
import ParleyJSON
import Testing

/// Problem details in `application/problem+json` through the JSON format, on both sides.
@Suite struct ProblemDetailsJSONTests {
    static let body = #"""
        {"type":"https://example.com/probs/out-of-credit","title":"You do not have enough credit.","status":403,
         "detail":"Your current balance is 30, but that costs 50.","instance":"/account/12345/msgs/abc",
         "balance":30,"accounts":["/account/12345","/account/67890"]}
        """#

    @Test func anErrorBodyFromTheClientReadsAsAProblem() async throws {
        let transport = InMemoryTransport(routes: [
            .init(.post, "/v1/messages"): .init(
                status: .forbidden, contentType: "application/problem+json", body: Self.body)
        ])
        let client = Client(
            baseURL: URL(string: "https://api.example.com/v1"), transport: transport, registry: jsonRegistry)
        do {
            _ = try await client.post("messages", parameters: ["text": "hi"])
            Issue.record("expected a 403")
        } catch {
            #expect(error.code == .unacceptableStatus)
            let problem = try #require(
                ParleyError.problem(
                    in: error.body ?? [], contentType: error.response?.headerFields[.contentType],
                    registry: jsonRegistry))
            #expect(problem.type == "https://example.com/probs/out-of-credit")
            #expect(problem.status == 403)
            #expect(problem.instance == "/account/12345/msgs/abc")
            #expect(problem.extensions == ["balance": 30, "accounts": ["/account/12345", "/account/67890"]])
        }
    }

    @Test func membersOfTheWrongJSONTypeAreIgnored() throws {
        let body = #"{"type":7,"title":["x"],"status":"403","detail":null,"instance":"/i","balance":30}"#
        let problem = ParleyError.problem(
            in: Array(body.utf8), contentType: "application/problem+json", registry: jsonRegistry)
        #expect(problem == ProblemDetails(instance: "/i", extensions: ["balance": 30]))
    }

    @Test func aServerRepliesWithProblemJSONByDefaultAndForApplicationJSON() throws {
        let problem = ProblemDetails(.notFound, detail: "No user 7.", extensions: ["id": 7])
        for accept in [nil, "application/json", "application/problem+json", "*/*"] as [String?] {
            let reply = try ParleyServer(registry: jsonRegistry).reply(with: problem, accepting: accept)
            #expect(reply.headerFields[.contentType] == "application/problem+json; charset=utf-8")
            #expect(String(decoding: reply.body, as: UTF8.self)
                    == #"{"type":"about:blank","title":"Not Found","status":404,"detail":"No user 7.","id":7}"#)
            #expect(
                ParleyError.problem(
                    in: reply.body, contentType: reply.headerFields[.contentType], registry: jsonRegistry) == problem)
        }
    }
}
