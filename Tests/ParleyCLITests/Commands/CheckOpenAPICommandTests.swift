import Foundation
import Testing

/// `parley check --openapi`: contract findings in the text, JSON Lines, JUnit and HTML reports,
/// softened by `--severity`, and a document that does not load is a usage error.
@Suite struct CheckOpenAPICommandTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ contents: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return url.path
    }

    static let spec = """
        openapi: 3.1.0
        info: {title: Books, version: "1"}
        servers: [{url: "https://api.example.com/v1"}]
        paths:
          /books/{id}:
            get:
              operationId: getBook
              parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema: {type: object, required: [title], properties: {title: {type: string}}}
        """

    /// A HAR file of GET /v1/books/{id} answers, one per (path, Content-Type, body).
    static func har(_ entries: [(path: String, type: String, body: String)]) -> String {
        func q(_ text: String) -> String {
            String(data: try! JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed]),
                   encoding: .utf8)!
        }
        let items = entries.map { entry in
            """
            {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1, "cache": {},
             "timings": {"send": 0, "wait": 1, "receive": 0},
             "request": {"method": "GET", "url": \(q("https://api.example.com" + entry.path)),
               "httpVersion": "HTTP/1.1",
               "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
               "headers": [{"name": "Content-Type", "value": \(q(entry.type))}], "cookies": [],
               "content": {"size": \(entry.body.utf8.count), "mimeType": \(q(entry.type)), "text": \(q(entry.body))},
               "redirectURL": "", "headersSize": -1, "bodySize": \(entry.body.utf8.count)}}
            """
        }
        return #"{"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": ["#
            + items.joined(separator: ",") + "]}}"
    }

    func recording() throws -> (spec: String, har: String) {
        (try file("openapi.yaml", Self.spec),
         try file("books.har", Self.har([("/v1/books/1", "application/json", #"{"title": "Dune"}"#),
                                         ("/v1/books/2", "application/json", #"{"title": 451}"#),
                                         ("/v1/authors/3", "application/json", "{}")])))
    }

    @Test func theTextReportListsEachContractFinding() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (spec, har) = try recording()
        let result = try ParleyProcess.run(["check", har, "--openapi", spec, "--color", "never"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("contract-body: the 200 response of getBook: integer is not of type string "
                                       + "(at /title, schema #/paths/~1books~1{id}/get/responses/200/content/"
                                       + "application~1json/schema/properties/title/type)"), "\(result.stdout)")
        #expect(result.stdout.contains("contract-no-operation: GET /v1/authors/3 matches no path of the document"))
        #expect(result.stdout.contains("1 ok"))
    }

    @Test func theJSONLinesReportCarriesInstanceAndSchemaPaths() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (spec, har) = try recording()
        let result = try ParleyProcess.run(["check", har, "--openapi", spec, "--report", "json"])
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("\"index\":1,") })
        #expect(line.contains(#""kind":"contract-body","severity":"error""#))
        #expect(line.contains(#""instance_path":"/title""#))
        #expect(line.contains(##""schema_path":"#/paths/~1books~1{id}/get/responses/200/content/"##
                              + ##"application~1json/schema/properties/title/type""##))
    }

    @Test func theJUnitAndHTMLReportsShowTheViolation() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (spec, har) = try recording()
        let junit = try ParleyProcess.run(["check", har, "--openapi", spec, "--report", "junit"])
        #expect(junit.stdout.contains("contract-body: the 200 response of getBook: integer is not of type string (at " +
                                      "/title"))
        let page = directory.appendingPathComponent("report.html").path
        _ = try ParleyProcess.run(["check", har, "--openapi", spec, "--report", "html", "--output", page])
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains(#"<code class="instance-path">/title</code></td>"#
                              + #"<td><code class="offending-value">451</code>"#))
        #expect(html.contains(##"<code class="schema-path">#/paths/~1books~1{id}/get/responses/200/content/"##
                              + ##"application~1json/schema/properties/title/type</code>"##))
    }

    @Test func severityCanSoftenAContractKind() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (spec, har) = try recording()
        let result = try ParleyProcess.run(["check", har, "--openapi", spec, "--severity", "contract-body=warning",
                                            "--severity", "contract-no-operation=note"])
        #expect(result.status == 0, "\(result.stdout)")
    }

    @Test func aDocumentThatDoesNotLoadIsAUsageError() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let har = try file("books.har", Self.har([]))
        let spec = try file("bad.yaml",
                "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {/a: {get: {responses: {'200': 5}}}}\n")
        let result = try ParleyProcess.run(["check", har, "--openapi", spec])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--openapi: \(spec) at /paths/~1a/get/responses/200"), "\(result.stderr)")
    }
}
