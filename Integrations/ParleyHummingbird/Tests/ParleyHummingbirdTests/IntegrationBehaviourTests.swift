import Hummingbird
import HTTPTypes
import Parley
import ParleyHTTP
import ParleyHummingbird
import ParleyJSON
import ParleyMessagePack
import ParleyServerTesting
import Testing

/// A context that adopts Parley in an extension, with one line.
struct PlainContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    init(source: Source) { coreContext = .init(source: source) }
}

extension PlainContext: ParleyRequestContext { static let parley = ParleyServer(registry: .linked) }

struct Greeting: Codable, Sendable, ResponseEncodable {
    var text: String
}

/// What the integration does beyond the shared table: adoption in one line, problems without
/// the middleware, Hummingbird's own errors as problems, Negotiated's status and fields.
@Suite struct IntegrationBehaviourTests {
    func router() -> Router<PlainContext> {
        let router = Router(context: PlainContext.self)
        router.get("/greeting") { _, _ in Greeting(text: "hello") }
        router.post("/greeting") { request, context in try await request.decode(as: Greeting.self, context: context) }
        router.put("/created") { _, _ in
            Negotiated(["id": 7] as Value, status: .created, headerFields: [.location: "/items/7"])
        }
        return router
    }

    func send(_ testCase: LiveCase, to router: Router<PlainContext>) async throws -> LiveRunner.Answer {
        try await withLiveServer(router) { try await LiveRunner(baseURL: $0).send(testCase) }
    }

    @Test func anEncodableIsNegotiatedWithTheContextAdoptedInAnExtension() async throws {
        let answer = try await send(LiveCase("yaml", .get, "/greeting", headerFields: [.accept: "application/yaml"],
                                             status: 200), to: router())
        #expect(answer.status == 200)
        #expect(answer.headerFields[.contentType] == "application/yaml; charset=utf-8")
        #expect(answer.headerFields[.vary] == "Accept")
        #expect(String(decoding: answer.body, as: UTF8.self).contains("text: hello"))
    }

    @Test func withoutTheMiddlewareAFailureIsStillAProblem() async throws {
        let answer = try await send(LiveCase("415", .post, "/greeting", headerFields: [.contentType: "text/html"],
                                             body: Array("<p>".utf8), status: 415), to: router())
        #expect(answer.status == 415)
        #expect(answer.headerFields[.contentType] == "application/problem+json; charset=utf-8")
        #expect(answer.headerFields[.accept]?.contains("application/json") == true)
        let problem = try #require(ProblemDetails(value: JSONFormat().decode(answer.body)))
        #expect(problem.status == 415)
    }

    @Test func aDecodedBodyRoundTrips() async throws {
        let answer = try await send(LiveCase("post", .post, "/greeting",
                                             headerFields: [.contentType: "application/x-yaml",
                                                            .accept: "application/json"],
                                             body: Array("text: hi\n".utf8), status: 200), to: router())
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == #"{"text":"hi"}"#)
    }

    @Test func negotiatedKeepsItsStatusAndFields() async throws {
        let answer = try await send(LiveCase("put", .put, "/created", headerFields: [.accept: "application/msgpack"],
                                             status: 201), to: router())
        #expect(answer.status == 201)
        #expect(answer.headerFields[.location] == "/items/7")
        #expect(answer.headerFields[.contentType] == "application/msgpack")
        #expect(try MessagePackFormat().decode(answer.body) == ["id": 7])
    }

    @Test func hummingbirdsOwnErrorsBecomeProblemsInTheAcceptedFormat() async throws {
        let router = router()
        router.add(middleware: ParleyMiddleware())
        router.get("/teapot") { _, _ -> String in throw HTTPError(.init(code: 418), message: "short and stout") }
        let answer = try await send(LiveCase("418", .get, "/teapot", headerFields: [.accept: "application/xml"],
                                             status: 418), to: router)
        #expect(answer.status == 418)
        #expect(answer.headerFields[.contentType] == "application/problem+xml; charset=utf-8")
        #expect(String(decoding: answer.body, as: UTF8.self).contains("short and stout"))
    }

    @Test func aParleyErrorThrownByARouteIsAnsweredWithItsStatus() async throws {
        let router = router()
        router.add(middleware: ParleyMiddleware())
        router.get("/limit") { _, _ -> String in
            throw ParleyError(.limitExceeded, "too many rows", limit: .init(name: "rows", maximum: 10))
        }
        let answer = try await send(LiveCase("413", .get, "/limit", status: 413), to: router)
        #expect(answer.status == 413)
        let problem = try #require(ProblemDetails(value: JSONFormat().decode(answer.body)))
        #expect(problem.detail == "too many rows")
    }

    /// Between the route and what answers its failure, a middleware rewrites `Accept` (as a
    /// versioning or defaulting middleware may): the problem must be negotiated from the
    /// `AcceptField` the failed reply was negotiated with, not from the request scanned again.
    struct RewritingAccept<Context: RequestContext>: RouterMiddleware {
        let accept: String
        func handle(_ request: Request, context: Context,
                    next: (Request, Context) async throws -> Response) async throws -> Response {
            var head = request.head
            head.headerFields[.accept] = accept
            return try await next(Request(head: head, body: request.body), context)
        }
    }

    @Test(arguments: [true, false])
    func aFailedReplysProblemIsNegotiatedFromTheSameAccept(withMiddleware: Bool) async throws {
        let router = Router(context: PlainContext.self)
        if withMiddleware { router.add(middleware: ParleyMiddleware()) }
        // The route sees `text/plain`, which cannot hold an object and accepts nothing that can.
        router.add(middleware: RewritingAccept(accept: "text/plain"))
        router.get("/tree") { _, _ in Negotiated(["id": 7] as Value) }
        router.get("/greeting") { _, _ in Greeting(text: "hello") }
        for path in ["/tree", "/greeting"] {
            let answer = try await send(LiveCase("406", .get, path, headerFields: [.accept: "application/xml"],
                                                 status: 406), to: router)
            #expect(answer.status == 406)
            // Negotiated from the client's application/xml it would be problem+xml; from the
            // reply's text/plain, the problem's plain-text form.
            #expect(answer.headerFields[.contentType] == "text/plain; charset=utf-8", "\(path)")
            #expect(String(decoding: answer.body, as: UTF8.self).contains("nothing acceptable for Accept 'text/plain'"))
        }
    }

    @Test func a406ListsOnlyTheTypesThatCanHoldTheValue() async throws {
        let router = router()
        router.add(middleware: ParleyMiddleware())
        router.get("/tree") { _, _ in Negotiated(["id": 7] as Value) }
        let answer = try await send(LiveCase("406", .get, "/tree", headerFields: [.accept: "application/x-unknown"],
                                             status: 406), to: router)
        #expect(answer.status == 406)
        let problem = try JSONFormat().decode(answer.body)
        let acceptable = try #require(problem["acceptable"]?.arrayValue).compactMap(\.stringValue)
        #expect(acceptable.contains("application/json") && acceptable.contains("application/msgpack"))
        #expect(!acceptable.contains("text/plain") && !acceptable.contains("application/octet-stream"))
    }

    @Test func malformedAcceptIsDetectedOnlyWhenNoElementIsARange() {
        #expect(ParleyServer.isMalformedAccept("application/"))
        #expect(ParleyServer.isMalformedAccept("text/csv;charset=\"utf-8"))
        #expect(ParleyServer.isMalformedAccept(", application/, x"))
        #expect(!ParleyServer.isMalformedAccept(""))
        #expect(!ParleyServer.isMalformedAccept(" , "))
        #expect(!ParleyServer.isMalformedAccept("*; q=.2"))
        #expect(!ParleyServer.isMalformedAccept("image/png"))
        #expect(!ParleyServer.isMalformedAccept("application/, image/png"))
    }
}
