import Foundation
import HTTPTypes
import Parley
import ParleyHTTP
import ParleyClient
import ParleyCompression
import ParleyJSON
import ParleyYAML
import Synchronization
import Testing

let jsonRegistry = Registry(formats: [JSONFormat()] + Registry.builtInFormats)

/// Remembers what a transport received.
final class Recorder: Sendable {
    private let state = Mutex<[(HTTPRequest, [UInt8])]>([])
    func record(_ request: HTTPRequest, _ body: [UInt8]) { state.withLock { $0.append((request, body)) } }
    var last: (request: HTTPRequest, body: [UInt8])? { state.withLock { $0.last } }
}

func jsonResponse(
    _ text: String, status: HTTPResponse.Status = .ok, contentType: String = "application/json"
) -> (HTTPResponse, [UInt8]) {
    (HTTPResponse(status: status, headerFields: [.contentType: contentType]), Array(text.utf8))
}

@Suite struct ClientTests {
    struct User: Codable, Equatable, Sendable {
        var id: Int
        var name: String
    }

    func makeClient(base: String? = "https://api.example.com/v1", recorder: Recorder = Recorder(),
                answer: @escaping @Sendable (HTTPRequest, [UInt8]) throws -> (HTTPResponse, [UInt8])) -> Client {
        let transport = InMemoryTransport { request, body in
            recorder.record(request, body)
            return try answer(request, body)
        }
        let serializer = ParameterRequestSerializer(
            registry: jsonRegistry,
            defaultHeaders: DefaultHeaders(registry: jsonRegistry, languages: ["en"], userAgent: "Tests/1 Parley"))
        return Client(baseURL: base.flatMap(URL.init(string:)), transport: transport, registry: jsonRegistry,
                      requestSerializer: serializer)
    }

    @Test(arguments: [
        ("https://api.example.com/v1", "users", "https://api.example.com/v1/users"),
        ("https://api.example.com/v1", "/users", "https://api.example.com/users"),
        ("https://api.example.com/v1/", "users?x=1", "https://api.example.com/v1/users?x=1"),
        ("https://api.example.com/v1", "users/7/", "https://api.example.com/v1/users/7/"),
        ("https://api.example.com/v1", "../v2/users", "https://api.example.com/v2/users"),
        ("https://api.example.com", "users", "https://api.example.com/users"),
        ("https://api.example.com/v1", "https://other.example.org/x", "https://other.example.org/x"),
    ])
    func baseURLFollowsTheTerminalSlashRule(base: String, path: String, expected: String) throws {
        let client = Client(baseURL: URL(string: base)!, transport: InMemoryTransport(routes: [:]))
        #expect(try client.url(for: path).absoluteString == expected)
    }

    @Test func getDecodesATypedValueAndSendsQueryAndDefaultHeaders() async throws {
        let recorder = Recorder()
        let client = makeClient(recorder: recorder) { _, _ in jsonResponse(#"{"id":7,"name":"Ada"}"#) }
        let result = try await client.get("users/7", parameters: ["fields": ["id", "name"], "q": "a b"], as: User.self)
        #expect(result.value == User(id: 7, name: "Ada"))
        #expect(result.response.status == .ok)
        let sent = try #require(recorder.last)
        #expect(sent.request.method == .get)
        #expect(sent.request.path == "/v1/users/7?fields%5B%5D=id&fields%5B%5D=name&q=a%20b")
        // A Decodable type asks for structured formats only.
        #expect(
            sent.request.headerFields[.accept] == "application/json, text/json, application/x-www-form-urlencoded;q=0.9"
        )
        #expect(sent.request.headerFields[.userAgent] == "Tests/1 Parley")
        #expect(sent.body.isEmpty)
    }

    @Test func postSendsAJSONBodyWithCharset() async throws {
        let recorder = Recorder()
        let client = makeClient(recorder: recorder) { _, body in
            jsonResponse(String(decoding: body, as: UTF8.self), status: .created)
        }
        let result = try await client.post("users", parameters: ["name": "Ada", "tags": ["x"]])
        #expect(result.value == ["name": "Ada", "tags": ["x"]])
        #expect(result.response.status == .created)
        let sent = try #require(recorder.last)
        #expect(sent.request.headerFields[.contentType] == "application/json; charset=utf-8")
        #expect(sent.request.headerFields[.contentLength] == String(sent.body.count))
        #expect(try JSONFormat().decode(sent.body) == ["name": "Ada", "tags": ["x"]])
    }

    @Test func everyMethodPlacesParametersAsConfigured() async throws {
        let recorder = Recorder()
        let client = makeClient(recorder: recorder) { request, _ in
            request.method == .head
                ? (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), []) : jsonResponse("{}")
        }
        _ = try await client.delete("items/1", parameters: ["hard": true])
        #expect(recorder.last?.request.path == "/v1/items/1?hard=true")
        _ = try await client.put("items/1", parameters: ["a": 1])
        #expect(recorder.last?.body == Array(#"{"a":1}"#.utf8))
        _ = try await client.patch("items/1", parameters: ["a": 2])
        #expect(recorder.last?.request.method == .patch)
        #expect(recorder.last?.body == Array(#"{"a":2}"#.utf8))
        let head = try await client.head("items/1")
        #expect(head.value == nil)

        var form = try #require(client.requestSerializer as? ParameterRequestSerializer)
        form.bodyEncoding = .form
        _ = try await client.send(.post, "login", parameters: ["user": "a b"], requestSerializer: form,
                                  responseSerializer: ValueResponseSerializer(registry: jsonRegistry))
        #expect(recorder.last?.request.headerFields[.contentType] == "application/x-www-form-urlencoded")
        #expect(recorder.last?.body == Array("user=a+b".utf8))

        struct Query: Encodable { var page = 2 }
        _ = try await client.send(
            .get, "list", encoding: Query(), responseSerializer: ValueResponseSerializer(registry: jsonRegistry))
        #expect(recorder.last?.request.path == "/v1/list?page=2")
    }

    @Test func errorStatusCarriesResponseAndADecodableBody() async throws {
        let problem = #"{"type":"about:blank","title":"Not here","status":404}"#
        let client = makeClient { _, _ in
            jsonResponse(problem, status: .notFound, contentType: "application/problem+json")
        }
        do {
            _ = try await client.get("missing", as: User.self)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .unacceptableStatus)
            #expect(error.response?.status == .notFound)
            #expect(error.body == Array(problem.utf8))
            let decoded = try jsonRegistry.decode(error.body ?? [], contentType: "application/problem+json")
            #expect(decoded["title"] == "Not here")
            // The pipeline decoded the error body once and read the problem from it.
            #expect(error.decodedBody == decoded)
            #expect(error.problem?.title == "Not here")
            #expect(error.problem?.status == 404)
        }
    }

    @Test("Client() with no registry decodes JSON, and names the registered formats when a type has no decoder")
    func defaultRegistryDecodesJSON() async throws {
        let transport = InMemoryTransport { request, _ in
            request.path == "/user"
                ? jsonResponse(#"{"id":7,"name":"Ada"}"#) : jsonResponse("a: 1", contentType: "application/yaml")
        }
        let client = Client(baseURL: URL(string: "https://api.example.com"), transport: transport)
        #expect(try await client.get("user", as: User.self).value == User(id: 7, name: "Ada"))
        await #expect { _ = try await client.get("config") } throws: { error in
            guard let error = error as? ParleyError else { return false }
            return error.code == .unacceptableContentType
                && error.message.contains("registered formats: json, text, form, raw")
        }
    }

    @Test("YAML served as application/octet-stream: the error names the label, the type's need and the body's look")
    func yamlServedAsBytes() async {
        let registry = Registry(formats: [JSONFormat(), YAMLFormat()] + Registry.builtInFormats)
        let transport = InMemoryTransport { _, _ in
            (
                HTTPResponse(status: .ok, headerFields: [.contentType: "application/octet-stream"]),
                Array("id: 7\nname: Ada\n".utf8)
            )
        }
        let client = Client(baseURL: URL(string: "https://files.example.com"), transport: transport, registry: registry)
        await #expect { _ = try await client.get("user.yaml", as: User.self) } throws: { error in
            guard let error = error as? ParleyError else { return false }
            return error.code == .unacceptableContentType
                && error.message.contains(
                    "labelled application/octet-stream, but User needs a structured format (registered structured "
                        + "formats: json, yaml, form)"
                )
                && error.message.contains("the body looks like application/yaml")
        }
    }

    @Test func unacceptableContentTypeNamesWhatCameBack() async {
        let client = makeClient { _, _ in jsonResponse("<html>oops</html>", contentType: "text/html") }
        await #expect { _ = try await client.get("page", as: User.self) } throws: { error in
            // text/* is registered (TextFormat), but a Decodable type is never read from plain
            // text: the error says so, and what the body looks like.
            guard let error = error as? ParleyError else { return false }
            return error.code == .unacceptableContentType && error.response?.status == .ok
                && error.body == Array("<html>oops</html>".utf8)
                && error.message.contains("User needs a structured format")
                && error.message.contains("looks like text/html")
        }
        let strict = makeClient { _, _ in jsonResponse("<html>oops</html>", contentType: "application/xhtml+xml") }
        await #expect { _ = try await strict.get("page") } throws: { error in
            guard let error = error as? ParleyError else { return false }
            return error.code == .unacceptableContentType && error.receivedContentType == "application/xhtml+xml"
        }
    }

    @Test func transportFailuresAreTyped() async {
        struct Down: Error {}
        let client = makeClient { _, _ in throw Down() }
        await #expect { _ = try await client.get("x") } throws: { error in
            guard let error = error as? ParleyError else { return false }
            return error.code == .transportFailed && error.underlying.first is Down && error.response == nil
        }
    }

    @Test func serializerErrorsThatAreNotParleyErrorsGetTheResponse() async {
        struct Odd: Error {}
        struct Throwing: ResponseSerializer {
            func serialize(_ response: HTTPResponse, body: [UInt8], request: HTTPRequest?) throws -> Int { throw Odd() }
        }
        let client = makeClient { _, _ in jsonResponse("1") }
        await #expect { _ = try await client.get("x", responseSerializer: Throwing()) } throws: { error in
            guard let error = error as? ParleyError else { return false }
            return error.code == .decodingFailed && error.response?.status == .ok && error.body == Array("1".utf8)
        }
    }

    @Test func requestErrorsBeforeSending() async throws {
        let recorder = Recorder()
        let noBase = makeClient(base: nil, recorder: recorder) { _, _ in jsonResponse("{}") }
        await #expect { _ = try await noBase.get("relative/path") } throws: {
            ($0 as? ParleyError)?.code == .invalidRequest
        }
        await #expect { _ = try await noBase.get("ftp://example.com/x") } throws: {
            ($0 as? ParleyError)?.code == .invalidRequest
        }
        let client = makeClient(recorder: recorder) { _, _ in jsonResponse("{}") }
        await #expect { _ = try await client.post("x", parameters: ["n": .float(.nan)]) } throws: {
            ($0 as? ParleyError)?.code == .invalidRequest
        }
        var bodyOnGet = try #require(client.requestSerializer as? ParameterRequestSerializer)
        bodyOnGet.queryMethods = []
        await #expect {
            _ = try await client.send(.get, "x", parameters: ["a": 1], requestSerializer: bodyOnGet,
                                      responseSerializer: ValueResponseSerializer(registry: jsonRegistry))
        } throws: { ($0 as? ParleyError)?.code == .invalidRequest }
        #expect(recorder.last == nil)
    }

    @Test func multipartUploadReachesTheTransportIntact() async throws {
        let client = makeClient { request, body in
            let parts = try MultipartDecoder().decode(body, contentType: request.headerFields[.contentType] ?? "")
            let summary = parts.map { "\($0.name)=\($0.filename ?? "-"):\($0.body.count)" }.joined(separator: ",")
            return jsonResponse("\"\(summary)\"")
        }
        var form = MultipartFormData()
        form.append(name: "title", value: "Holiday")
        form.append(name: "photo", bytes: [UInt8](repeating: 7, count: 1000), filename: "beach.jpg")
        let result = try await client.upload(
            "photos", multipart: form, responseSerializer: ValueResponseSerializer(registry: jsonRegistry))
        #expect(result.value == "title=-:7,photo=beach.jpg:1000")
        #expect(result.request.headerFields[.contentLength] == String(form.contentLength))
    }

    @Test func routeTablesAnswerKnownRoutesAnd404Otherwise() async throws {
        let transport = InMemoryTransport(routes: [
            .init(.get, "/v1/users/7"): .init(
                status: .ok, contentType: "application/json", body: #"{"id":7,"name":"Ada"}"#)
        ])
        let client = Client(
            baseURL: URL(string: "https://api.example.com/v1")!, transport: transport, registry: jsonRegistry)
        #expect(try await client.get("users/7", parameters: ["x": 1], as: User.self).value == User(id: 7, name: "Ada"))
        await #expect { _ = try await client.get("users/8") } throws: { error in
            guard let error = error as? ParleyError else { return false }
            return error.response?.status == .notFound && error.body == Array("no route for GET /v1/users/8".utf8)
        }
    }

    @Test func codedBodiesFromTransportsThatDoNotDecompressAreDecompressed() async throws {
        let json = Array(#"{"id":7,"name":"Ada"}"#.utf8)
        for coding in [ContentCoding.gzip, .deflate, .brotli, .zstd] {
            let coded = Compressor().compress(json, coding: coding)
            let client = makeClient { _, _ in
                (
                    HTTPResponse(
                        status: .ok,
                        headerFields: [
                            .contentType: "application/json", .contentEncoding: coding.rawValue,
                            .contentLength: String(coded.count)
                        ]), coded
                )
            }
            let result = try await client.get("users/7", as: User.self)
            #expect(result.value == User(id: 7, name: "Ada"))
            #expect(result.body == json)
            #expect(result.response.headerFields[.contentEncoding] == nil)
        }
        let corrupt = makeClient { _, _ in
            (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json", .contentEncoding: "gzip"]),
             [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 3, 0xFF, 0xFF])
        }
        await #expect { _ = try await corrupt.get("users/7") } throws: { ($0 as? ParleyError)?.code == .decodingFailed }
    }

    @Test func theDefaultSerializerAcceptsEveryCodingTheClientUndoes() throws {
        let client = Client(transport: InMemoryTransport(routes: [:]), registry: jsonRegistry)
        let built = try client.requestSerializer.makeRequest(
            method: .get, url: URL(string: "https://example.com/")!, parameters: nil,
            headerFields: [:])
        #expect(built.request.headerFields[.acceptEncoding] == "gzip, deflate, br, zstd")
        for token in ContentCoding.acceptEncodingValue.split(separator: ", ") {
            #expect(ContentCodings.standard.decoder(for: String(token)) != nil)
        }
    }
}
