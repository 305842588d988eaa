import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import Parley
import ParleyCompression
import ParleyFixtures
import ParleyGateway
import ParleyOpenAPI
import Synchronization
import Testing

/// `--openapi`: requests and responses checked against an OpenAPI document, reported (log,
/// metric, recording) or enforced (400 before the upstream, 502 instead of the answer).
@Suite(.timeLimit(.minutes(2))) struct ContractTests {
    static let document = """
        openapi: 3.1.0
        info: {title: Books, version: "1"}
        paths:
          /books/{id}:
            get:
              operationId: getBook
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
              responses:
                "200":
                  description: a book
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [id, title]
                        properties: {id: {type: integer}, title: {type: string}}
          /books:
            post:
              operationId: addBook
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      required: [title]
                      properties: {title: {type: string}}
                      additionalProperties: false
              responses:
                "201":
                  description: added
                  content:
                    application/json:
                      schema: {type: object, required: [id], properties: {id: {type: integer}}}
        """

    /// Counts the requests that reached the upstream.
    final class Hits: Sendable {
        private let count = Atomic<Int>(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// The books upstream: book 13's `id` is a string (it violates the document), book 99's
    /// title is 2 KB long, and book 77's too, gzipped (under 1 KB); `POST /books` answers 201
    /// whatever it is sent.
    static func upstream(_ hits: Hits) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/books/{id}") { _, context -> Response in
            hits.add()
            let id = context.parameters.get("id") ?? ""
            let body = switch id {
            case "13": #"{"id":"thirteen","title":"Unlucky"}"#
            case "99": #"{"id":99,"title":"\#(String(repeating: "x", count: 2048))"}"#
            case "77": #"{"id":77,"title":"\#(Self.varied(byteCount: 2048))"}"#
            default: #"{"id":\#(id),"title":"Book \#(id)"}"#
            }
            guard id == "77" else {
                return Response(status: .ok, headers: [.contentType: "application/json"],
                                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
            }
            let gzip = Compressor().compress(Array(body.utf8), coding: .gzip)
            return Response(status: .ok, headers: [.contentType: "application/json", .contentEncoding: "gzip"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: gzip)))
        }
        router.post("/books") { request, _ -> Response in
            hits.add()
            _ = try await request.body.collect(upTo: 1 << 20)
            return Response(status: .created, headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"id":1}"#)))
        }
        return router
    }

    /// Words picked by a fixed sequence, to `byteCount` bytes: text gzip shrinks a few times, not a
    /// hundred (the test client refuses to inflate a body more than tenfold).
    static func varied(byteCount: Int) -> String {
        let words = ["alpha", "bravo", "delta", "echo", "golf", "hotel", "kilo", "lima", "mike", "oscar", "papa",
                     "romeo", "sierra", "tango", "victor", "zulu"]
        var state: UInt32 = 77
        var text = ""
        while text.utf8.count < byteCount {
            state = state &* 1_103_515_245 &+ 12_345
            text += words[Int(state >> 16) % words.count] + " "
        }
        return text
    }

    /// Writes the document to a temporary file for the length of `body`.
    static func withDocument<T>(_ text: String = document, _ body: (URL) async throws -> T) async throws -> T {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parley-contract-\(UUID()).yaml")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await body(file)
    }

    static let json = [("Accept", "application/json")]
    static let yaml = [("Accept", "application/yaml")]
    static let posting = [("Content-Type", "application/json"), ("Accept", "application/json")]

    @Test func reportModeLogsCountsAndRecordsViolationsAndAnswersAsUsual() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-contract-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = CapturedLines()
        let logger = Logger(label: "gateway") { _ in CapturingLogHandler(lines: lines) }
        let hits = Hits()
        try await Self.withDocument { document in
            try await withUpstream(Self.upstream(hits)) { upstream in
                try await withGateway(upstream: upstream, logger: logger, accessLogger: quietLogger, configure: {
                    $0.contract = .init(document: document)
                    $0.recording = .init(directory: folder)
                    $0.admin = HostAndPort(host: "127.0.0.1", port: 0)
                }) { gateway in
                    let base = "http://\(gateway.main)"
                    #expect(try await fetch("\(base)/books/1", headers: Self.json).status == 200)
                    // Passed through, then transcoded: each answered as usual, each a body violation.
                    let passed = try await fetch("\(base)/books/13", headers: Self.json)
                    #expect(passed.status == 200)
                    #expect(passed.text == #"{"id":"thirteen","title":"Unlucky"}"#)
                    let transcoded = try await fetch("\(base)/books/13", headers: Self.yaml)
                    #expect(transcoded.status == 200)
                    #expect(transcoded.header("Content-Type")?.hasPrefix("application/yaml") == true)
                    // A request violation reaches the upstream all the same.
                    let posted = try await fetch("\(base)/books", method: .POST, headers: Self.posting,
                                                 body: Array(#"{"title":5}"#.utf8))
                    #expect(posted.status == 201)
                    #expect(try await fetch("\(base)/shelves", headers: Self.json).status == 404)
                    #expect(hits.value == 4)

                    let metrics = try await fetch("http://\(try #require(gateway.admin))/metrics").text
                    #expect(Self.counter(in: metrics, operation: "getBook", kind: "contract-body") == 2, "\(metrics)")
                    #expect(Self.counter(in: metrics, operation: "addBook", kind: "contract-request") == 1)
                    #expect(Self.counter(in: metrics, operation: "none", kind: "contract-no-operation") == 1)
                }
            }
        }
        let logged = lines.all.filter { $0.contains("contract violation") }
        #expect(logged.count == 4, "\(lines.all)")
        #expect(logged.contains { line in
            line.contains("operation=getBook") && line.contains("/id") && line.contains("contract-body")
        })
        #expect(logged.contains { $0.contains("operation=addBook") && $0.contains("contract-request") })

        // The recording: each entry's `_parley.contract` lists its findings; a clean one has none.
        let entries = try Self.harEntries(in: folder)
        #expect(entries.count == 5)
        func findings(_ path: String, _ method: String = "GET") -> [Value]? {
            let entry = entries.first { entry in
                entry["request"]?["url"]?.stringValue?.hasSuffix(path) == true
                    && entry["request"]?["method"]?.stringValue == method
            }
            return entry?["_parley"]?["contract"]?.arrayValue
        }
        #expect(entries.filter { $0["request"]?["url"]?.stringValue?.hasSuffix("/books/1") == true }
            .allSatisfy { $0["_parley"] == nil })
        let body = try #require(findings("/books/13")?.first)
        #expect(body["kind"] == .string("contract-body"))
        #expect(body["instance_path"] == .string("/id"))
        #expect(body["value"] == .string("thirteen"))
        #expect(body["schema_path"]?.stringValue?.contains("/properties/id") == true, "\(body)")
        #expect(body["message"]?.stringValue?.contains("getBook") == true)
        let request = try #require(findings("/books", "POST")?.first)
        #expect(request["kind"] == .string("contract-request"))
        #expect(request["instance_path"] == .string("/title"))
        #expect(request["value"] == .integer(5))
        #expect(findings("/shelves")?.first?["kind"] == .string("contract-no-operation"))
        // `parley check` reads the annotated recording as any other.
        let checker = FixtureChecker(options: CheckOptions(registry: .linked))
        for file in try FixtureFiles.discover([folder.path]) {
            let check = checker.check(file)
            #expect(check.readError == nil)
            #expect(check.exchanges.count == 5)
        }
    }

    @Test func enforceModeAnswers400BeforeTheUpstreamAnd502InsteadOfAViolatingResponse() async throws {
        let hits = Hits()
        try await Self.withDocument { document in
            try await withUpstream(Self.upstream(hits)) { upstream in
                try await withGateway(upstream: upstream, configure: {
                    $0.contract = .init(document: document, requests: .enforce, responses: .enforce)
                }) { gateway in
                    let base = "http://\(gateway.main)"
                    let refused = try await fetch("\(base)/books", method: .POST, headers: Self.posting,
                                                  body: Array(#"{"title":5,"isbn":"x"}"#.utf8))
                    #expect(refused.status == 400)
                    #expect(refused.header("Content-Type")?.hasPrefix("application/problem+json") == true)
                    #expect(hits.value == 0)   // the upstream never saw it
                    let problem = try Registry.linked.decode(refused.body, contentType: "application/json")
                    #expect(problem["status"] == .integer(400))
                    let violations = try #require(problem["violations"]?.arrayValue)
                    #expect(violations.count == 2, "\(problem)")
                    #expect(violations.allSatisfy { $0["kind"] == .string("contract-request") })
                    #expect(violations.contains { $0["instance_path"] == .string("/title") && $0["value"] == 5 })
                    let unknown = try await fetch("\(base)/shelves", headers: Self.json)
                    #expect(unknown.status == 400)
                    #expect(unknown.text.contains("contract-no-operation"))
                    #expect(hits.value == 0)

                    let accepted = try await fetch("\(base)/books", method: .POST, headers: Self.posting,
                                                   body: Array(#"{"title":"Dune"}"#.utf8))
                    #expect(accepted.status == 201)
                    let book = try await fetch("\(base)/books/1", headers: Self.json)
                    #expect(book.text == #"{"id":1,"title":"Book 1"}"#)

                    // A violating response, passed through or transcoded: 502, negotiated like any answer.
                    let replaced = try await fetch("\(base)/books/13", headers: Self.json)
                    #expect(replaced.status == 502)
                    #expect(replaced.header("Content-Type")?.hasPrefix("application/problem+json") == true)
                    let body = try Registry.linked.decode(replaced.body, contentType: "application/json")
                    #expect(body["violations"]?[0]?["kind"] == .string("contract-body"))
                    #expect(body["violations"]?[0]?["instance_path"] == .string("/id"))
                    #expect(body["violations"]?[0]?["value"] == .string("thirteen"))
                    let inYAML = try await fetch("\(base)/books/13", headers: Self.yaml)
                    #expect(inYAML.status == 502)
                    #expect(inYAML.header("Content-Type")?.contains("yaml") == true, "\(inYAML.headers)")
                    #expect(inYAML.text.contains("contract-body"))
                    #expect(hits.value == 4)
                }
            }
        }
    }

    @Test func aRouteOverridesTheModesAndABodyOverTheLimitPassesUnchecked() async throws {
        let hits = Hits()
        let lines = CapturedLines()
        let logger = Logger(label: "gateway") { _ in CapturingLogHandler(lines: lines) }
        try await Self.withDocument { document in
            try await withUpstream(Self.upstream(hits)) { upstream in
                try await withGateway(upstream: upstream, logger: logger, configure: {
                    $0.contract = .init(document: document, requests: .enforce, responses: .enforce)
                    $0.maxTranscodeBytes = 1024
                    var route = GatewayConfiguration.Route(pathPrefix: "/books/13")
                    route.contractResponses = .off
                    $0.routes = [route]
                }) { gateway in
                    let base = "http://\(gateway.main)"
                    #expect(try await fetch("\(base)/books/13", headers: Self.json).status == 200)
                    // 2 KB, over the 1 KB limit: streamed, not held, not checked, and said so.
                    let large = try await fetch("\(base)/books/99", headers: Self.json)
                    #expect(large.status == 200)
                    #expect(large.body.count > 2048)
                    // Held (under the limit as sent), but it inflates past the limit: passed on as it came,
                    // not checked, and said so (not a violation, so not 502).
                    let inflating = try await fetch("\(base)/books/77",
                                                    headers: Self.json + [("Accept-Encoding", "gzip")])
                    #expect(inflating.status == 200)
                    #expect(inflating.header("Content-Encoding") == "gzip")
                }
            }
        }
        #expect(lines.all.contains { $0.contains("contract not checked") && $0.contains("contract-unchecked") },
                "\(lines.all)")
        #expect(lines.all.contains { $0.contains("contract-unchecked") && $0.contains("getBook is not checked") },
                "\(lines.all)")
        #expect(!lines.all.contains { $0.contains("contract violation") })
    }

    @Test func eachResponseOnAKeepAliveConnectionIsCheckedAgainstTheOperationOfItsOwnPath() async throws {
        // Requests off: the gateway looks the operation up itself, and a connection asking for
        // the path of its last request again reuses that lookup.
        let hits = Hits()
        try await Self.withDocument { document in
            try await withUpstream(Self.upstream(hits)) { upstream in
                try await withGateway(upstream: upstream, configure: {
                    $0.contract = .init(document: document, requests: .off, responses: .report)
                    $0.admin = HostAndPort(host: "127.0.0.1", port: 0)
                }) { gateway in
                    let connection = try await RawConnection.open(port: gateway.main.port)
                    let paths = ["/books/13", "/books/13", "/books/1", "/shelves", "/books/13", "/books/1?x=1"]
                    for (index, path) in paths.enumerated() {
                        try await connection.send("GET \(path) HTTP/1.1\r\nHost: gateway\r\n"
                                                  + "Accept: application/json\r\n\r\n")
                        let answers = await connection.responses(index + 1, within: .seconds(5))
                        #expect(answers.count == index + 1, "\(path)")
                        #expect(answers.last?.status == (path == "/shelves" ? 404 : 200), "\(path)")
                    }
                    #expect(!connection.isClosed)
                    await connection.close()
                    #expect(hits.value == 5)
                    let metrics = try await fetch("http://\(try #require(gateway.admin))/metrics").text
                    #expect(Self.counter(in: metrics, operation: "getBook", kind: "contract-body") == 3, "\(metrics)")
                    #expect(Self.counter(in: metrics, operation: "none", kind: "contract-no-operation") == 1)
                }
            }
        }
    }

    @Test func aDocumentThatDoesNotLoadStopsTheGatewayNamingTheError() async throws {
        // A schema that refers to a file that is not there.
        let broken = Self.document.replacingOccurrences(of: "schema: {type: integer}",
                                                        with: "schema: {$ref: 'missing.yaml#/Id'}")
        try await Self.withDocument(broken) { document in
            var configuration = GatewayConfiguration(listen: HostAndPort(host: "127.0.0.1", port: 0),
                                                     upstream: URL(string: "http://127.0.0.1:9")!)
            configuration.contract = .init(document: document)
            let gateway = Gateway(configuration: configuration, registry: .linked, logger: quietLogger) { _ in
                Issue.record("the gateway started")
            }
            await #expect {
                try await gateway.run()
            } throws: { error in
                "\(error)".contains("'\(document.path)' does not load") && "\(error)".contains("missing.yaml")
            }
        }
    }

    @Test func theConfigurationFileSetsTheContractAndRoutesOverrideIt() throws {
        let yaml = """
            upstream: http://127.0.0.1:9000
            contract:
              openapi: books.yaml
              requests: enforce
            routes:
              - prefix: /legacy
                contract: {requests: off, responses: enforce}
            """
        let configuration = try GatewayConfiguration(yaml: Array(yaml.utf8))
        let contract = try #require(configuration.contract)
        #expect(contract.document.lastPathComponent == "books.yaml")
        #expect(contract.requests == .enforce)
        #expect(contract.responses == .report)
        #expect(configuration.routes.first?.contractRequests == .off)
        #expect(configuration.routes.first?.contractResponses == .enforce)
        let bad = "upstream: http://127.0.0.1:9000\ncontract: {openapi: a.yaml, responses: strict}\n"
        #expect {
            _ = try GatewayConfiguration(yaml: Array(bad.utf8))
        } throws: { error in
            "\(error)".contains("contract.responses: 'strict' is not off, report or enforce")
        }
        #expect(throws: GatewayConfigurationError.self) {
            let noDocument = "upstream: http://127.0.0.1:9000\ncontract: {requests: report}\n"
            _ = try GatewayConfiguration(yaml: Array(noDocument.utf8))
        }
    }

    /// The value of `parley_gateway_contract_violations_total` with these labels, if it is there.
    static func counter(in metrics: String, operation: String, kind: String) -> Int? {
        let line = metrics.split(separator: "\n").first { line in
            line.hasPrefix("parley_gateway_contract_violations_total{") && line.contains(#"operation="\#(operation)""#)
                && line.contains(#"kind="\#(kind)""#)
        }
        return line.flatMap { $0.split(separator: " ").last.flatMap { Int($0) } }
    }

    /// Every entry of every HAR file in `folder`.
    static func harEntries(in folder: URL) throws -> [Value] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".har") }
            .flatMap { name -> [Value] in
                let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
                let har = try Registry.linked.decode(Array(bytes), contentType: "application/json")
                return har["log"]?["entries"]?.arrayValue ?? []
            }
    }
}

/// Log lines as a handler wrote them: message, then `key=value` metadata.
final class CapturedLines: Sendable {
    private let lines = NIOLockedValueBox<[String]>([])
    func append(_ line: String) { lines.withLockedValue { $0.append(line) } }
    var all: [String] { lines.withLockedValue { $0 } }
}

/// A log handler that keeps every line it is given.
struct CapturingLogHandler: LogHandler {
    let lines: CapturedLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        lines.append(([event.level.rawValue, event.message.description] + fields).joined(separator: " "))
    }
}
