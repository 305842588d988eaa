import Foundation
import HTTPTypes
import Parley
import ParleyCompression
import ParleyFixtures
import ParleyImage
import ParleyJSON
import Synchronization
import Testing

/// A clock the tests move by hand, so rotation by age needs no sleeping.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_795_630_620)) {   // 2026-11-25T18:17:00Z
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(seconds: Double) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

@Suite("Recording exchanges as HAR files")
struct HARRecorderTests {
    // MARK: Helpers

    func capture(_ method: HTTPRequest.Method = .get, _ path: String, requestFields: HTTPFields = [:],
                 requestBody: [UInt8] = [],
                 status: Int = 200, fields: HTTPFields = [:], body: [UInt8] = [],
                 bodyByteCount: Int? = nil) -> CapturedExchange {
        CapturedExchange(request: HTTPRequest(method: method, scheme: "https", authority: "api.example.org", path: path,
                                              headerFields: requestFields),
                         requestBody: requestBody,
                         response: HTTPResponse(status: .init(code: status), headerFields: fields),
                         responseBody: body, responseBodyByteCount: bodyByteCount,
                         startedAt: Date(timeIntervalSince1970: 1_795_630_620.25), totalMilliseconds: 12.5)
    }

    func files(in folder: URL, suffix: String = ".har") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(suffix) }.sorted()
    }

    /// Every recording in `folder` as `parley check` finds and reads them.
    func recordings(in folder: URL) throws -> [Recording] {
        try FixtureFiles.discover([folder.path]).map { try RecordingReader().read(path: $0.path) }
    }

    /// What `parley check --strict FOLDER` runs: discovery, then the folder checker.
    func strictCheck(_ folder: URL) async throws -> [RecordingCheck] {
        let checker = FixtureChecker(options: CheckOptions(registry: testRegistry, isStrict: true))
        var checks: [RecordingCheck] = []
        await checker.run(try FixtureFiles.discover([folder.path])) { checks.append($0) }
        return checks
    }

    /// The raw JSON of the only recording in `folder`, decoded.
    func onlyLog(in folder: URL) throws -> Value {
        let names = try files(in: folder)
        try #require(names.count == 1)
        let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(names[0])))
        return try JSONFormat().decode(bytes)
    }

    func header(_ name: String, in fields: Value?) -> String? {
        fields?.arrayValue?.first { $0["name"]?.stringValue?.lowercased() == name.lowercased() }?["value"]?.stringValue
    }

    // MARK: Round trip

    @Test("JSON, text, PNG, raw binary and gzip bodies round-trip: read as HAR, pass the strict check, replay")
    func roundTrip() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = try HARRecorder(directory: folder.path, registry: testRegistry)
        let json = Array(#"{"id":4213,"name":"Ada Lovelace","tags":["math"]}"#.utf8)
        let png = try Image(width: 3, height: 2, rgba: [UInt8](repeating: 0x7F, count: 3 * 2 * 4)).encoded(as: .png)
        let binary: [UInt8] = [0x00, 0xFF, 0xFE, 0x80, 0x81, 0x10, 0xC3]
        let document = Array(String(repeating: #"{"n":1,"text":"compressible"},"#, count: 200).dropLast().utf8)
        let large = Array("[".utf8) + document + Array("]".utf8)
        let gzipped = Compressor().compress(large, coding: .gzip)

        try recorder.record(capture(.get, "/users/4213?fields=name&x=a%20b",
                                    requestFields: [.accept: "application/json"],
                                    fields: [.contentType: "application/json",
                                             .contentLength: String(json.count)], body: json))
        try recorder.record(capture(.get, "/hello", fields: [.contentType: "text/plain; charset=utf-8"],
                                    body: Array("héllo\n".utf8)))
        try recorder.record(capture(.get, "/logo.png", fields: [.contentType: "image/png"], body: png))
        try recorder.record(capture(.get, "/blob", fields: [.contentType: "application/octet-stream"], body: binary))
        try recorder.record(capture(.get, "/items", fields: [.contentType: "application/json", .contentEncoding: "gzip",
                                                             .contentLength: String(gzipped.count)], body: gzipped))
        try recorder.record(capture(.post, "/messages", requestFields: [.contentType: "application/json"],
                                    requestBody: Array(#"{"to":7}"#.utf8), status: 201,
                                    fields: [.contentType: "application/json"],
                                    body: Array(#"{"ok":true}"#.utf8)))
        try recorder.record(capture(.delete, "/messages/1", status: 204))
        #expect(try files(in: folder, suffix: ".partial").count == 1)
        try recorder.close()
        #expect(try files(in: folder, suffix: ".partial").isEmpty)
        #expect(recorder.recordedCount == 7)

        let names = try files(in: folder)
        #expect(names.count == 1)
        #expect(names.first?.wholeMatch(of: /parley-\d{8}T\d{6}Z-0001\.har/) != nil)
        let recording = try #require(try recordings(in: folder).first)
        #expect(recording.kind == .har)
        #expect(recording.exchanges.map(\.request.url) == [
            "https://api.example.org/users/4213?fields=name&x=a%20b", "https://api.example.org/hello",
            "https://api.example.org/logo.png",
            "https://api.example.org/blob", "https://api.example.org/items", "https://api.example.org/messages",
            "https://api.example.org/messages/1",
        ])
        #expect(recording.exchanges.map(\.response.body)
                == [json, Array("héllo\n".utf8), png, binary, large, Array(#"{"ok":true}"#.utf8), []])
        #expect(recording.exchanges[5].request.body == Array(#"{"to":7}"#.utf8))
        #expect(recording.exchanges[5].response.status == 201)

        // HAR 1.2 shape: base64 for what is not text, sizes for the coded body, the query listed.
        let log = try onlyLog(in: folder)
        #expect(log["log"]?["version"] == "1.2")
        let entries = try #require(log["log"]?["entries"]?.arrayValue)
        #expect(entries[0]["request"]?["queryString"]
                == [["name": "fields", "value": "name"], ["name": "x", "value": "a b"]])
        #expect(entries[0]["startedDateTime"] == "2026-11-25T18:17:00.250Z")
        #expect(entries[0]["time"]?.doubleValue == 12.5)
        #expect(entries[1]["response"]?["content"]?["encoding"] == nil)
        #expect(entries[2]["response"]?["content"]?["encoding"] == "base64")
        #expect(entries[3]["response"]?["content"]?["encoding"] == "base64")
        let coded = try #require(entries[4]["response"])
        #expect(coded["bodySize"]?.integerValue == Int64(gzipped.count))
        #expect(coded["content"]?["size"]?.integerValue == Int64(large.count))
        #expect(coded["content"]?["compression"]?.integerValue == Int64(large.count - gzipped.count))
        #expect(header("content-encoding", in: coded["headers"]) == "gzip")
        #expect(entries.allSatisfy { $0["comment"] == nil })

        let checks = try await strictCheck(folder)
        #expect(checks.count == 1)
        #expect(checks.allSatisfy { !$0.fails(strict: true) && $0.readError == nil })
        #expect(checks.first?.exchanges.map(\.format) == ["json", "text", "image", "raw", "json", "json", nil])

        let replayer = Replayer(recordings: [recording])
        let user = try replayer.replay(method: "GET", url: "https://api.example.org/users/4213?fields=name&x=a%20b")
        #expect(user.response.status == 200)
        #expect(user.response.headers["Content-Type"] == "application/json")
        #expect(user.response.headers["Content-Length"] == String(json.count))
        #expect(user.response.body == json)
        // Through the client transport, the stored-decoded gzip body arrives without its coding.
        let transport = ReplayTransport(replayer: replayer)
        let (response, body) = try await transport.send(HTTPRequest(method: .get, scheme: "https",
                                                                    authority: "api.example.org",
                                                                    path: "/items"), body: nil)
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentEncoding] == nil)
        #expect(response.headerFields[.contentType] == "application/json")
        #expect(body == large)
    }

    // MARK: Rotation

    @Test("A file is closed when it holds maxExchangesPerFile entries: 12 exchanges at 5 a file make 3 files, in order")
    func rotationByCount() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = try HARRecorder(directory: folder.path, registry: testRegistry,
                                       options: RecordingOptions(maxExchangesPerFile: 5))
        for index in 0..<12 {
            try recorder.record(capture(.get, "/n/\(index)", fields: [.contentType: "text/plain"],
                                        body: Array("\(index)".utf8)))
            // The file is renamed as soon as it is full, not on the next record.
            #expect(try files(in: folder).count == (index + 1) / 5)
        }
        try recorder.close()
        let names = try files(in: folder)
        #expect(names.count == 3)
        #expect(names.map { $0.suffix(8) } == ["0001.har", "0002.har", "0003.har"])
        let recordings = try recordings(in: folder)
        #expect(recordings.map(\.exchanges.count) == [5, 5, 2])
        #expect(recordings.flatMap(\.exchanges).map(\.request.url)
                == (0..<12).map { "https://api.example.org/n/\($0)" })
    }

    @Test("A file open for maxFileAge is closed by the next record or flush; names carry the time and sort by it")
    func rotationByAge() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = TestClock()
        let recorder = try HARRecorder(directory: folder.path, registry: testRegistry,
                                       options: RecordingOptions(maxFileAge: .seconds(60)), now: { clock.now })
        try recorder.record(capture(.get, "/a"))
        clock.advance(seconds: 30)
        try recorder.record(capture(.get, "/b"))
        try recorder.flush()
        #expect(try files(in: folder).isEmpty)
        #expect(try files(in: folder, suffix: ".partial") == ["parley-20261125T181700Z-0001.har.partial"])

        clock.advance(seconds: 30)   // 60 s after the file was opened
        try recorder.record(capture(.get, "/c"))
        #expect(try files(in: folder) == ["parley-20261125T181700Z-0001.har"])
        #expect(try files(in: folder, suffix: ".partial") == ["parley-20261125T181800Z-0002.har.partial"])

        clock.advance(seconds: 59.5)
        try recorder.flush()
        #expect(try files(in: folder).count == 1)
        clock.advance(seconds: 0.5)
        try recorder.flush()
        #expect(try files(in: folder) == ["parley-20261125T181700Z-0001.har", "parley-20261125T181800Z-0002.har"])
        #expect(try files(in: folder, suffix: ".partial").isEmpty)
        try recorder.flush()   // nothing open: no empty file
        try recorder.close()
        #expect(try files(in: folder).count == 2)
        #expect(try recordings(in: folder).map { $0.exchanges.map(\.request.url) }
            == [["https://api.example.org/a", "https://api.example.org/b"], ["https://api.example.org/c"]])
    }

    @Test("A name another recorder already finished is skipped, never replaced")
    func existingNamesAreKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = TestClock()
        let taken = folder.appendingPathComponent("parley-20261125T181700Z-0001.har")
        try Data("keep".utf8).write(to: taken)
        let recorder = try HARRecorder(directory: folder.path, registry: testRegistry, now: { clock.now })
        try recorder.record(capture(.get, "/a"))
        try recorder.close()
        #expect(try String(contentsOf: taken, encoding: .utf8) == "keep")
        #expect(try files(in: folder) == ["parley-20261125T181700Z-0001.har", "parley-20261125T181700Z-0002.har"])
    }

    // MARK: Redaction

    @Test("Authorization, Proxy-Authorization, Cookie and Set-Cookie are redacted by default; configured names add")
    func headerRedaction() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = try HARRecorder(directory: folder.path, registry: testRegistry,
                                       options: RecordingOptions(redactedHeaders: ["x-API-key"], replacement: "[gone]"))
        try recorder.record(capture(.get, "/me", requestFields: [.authorization: "Bearer s3cret", .cookie: "sid=1",
                                                                 .proxyAuthorization: "Basic eA==",
                                                                 HTTPField.Name("X-Api-Key")!: "k",
                                                                 .accept: "application/json"],
                                    fields: [.setCookie: "sid=2; HttpOnly", .setCookie: "other=3",
                                             .contentType: "text/plain",
                                             HTTPField.Name("x-api-key")!: "k2", .eTag: "\"v1\""],
                                    body: Array("hi".utf8)))
        try recorder.close()
        let entry = try #require(try onlyLog(in: folder)["log"]?["entries"]?[0])
        let request = try #require(entry["request"]?["headers"]?.arrayValue)
        #expect(request == [["name": "Authorization", "value": "[gone]"], ["name": "Cookie", "value": "[gone]"],
                            ["name": "Proxy-Authorization", "value": "[gone]"],
                            ["name": "X-Api-Key", "value": "[gone]"],
                            ["name": "Accept", "value": "application/json"]])
        let response = try #require(entry["response"]?["headers"]?.arrayValue)
        #expect(response == [["name": "Set-Cookie", "value": "[gone]"], ["name": "Set-Cookie", "value": "[gone]"],
                             ["name": "Content-Type", "value": "text/plain"], ["name": "x-api-key", "value": "[gone]"],
                             ["name": "ETag", "value": "\"v1\""]])
        #expect(entry["request"]?["cookies"] == [] && entry["response"]?["cookies"] == [])
        let text = try String(contentsOf: folder.appendingPathComponent(try files(in: folder)[0]), encoding: .utf8)
        for secret in ["s3cret", "sid=", "eA==", "\"k\"", "k2"] { #expect(!text.contains(secret)) }

        // Without the defaults, only the configured names go.
        let plain = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: plain) }
        let unredacted = try HARRecorder(directory: plain.path, registry: testRegistry,
                                         options: RecordingOptions(redactedHeaders: ["cookie"],
                                                                   redactsDefaultHeaders: false))
        try unredacted.record(capture(.get, "/me", requestFields: [.authorization: "Bearer s3cret", .cookie: "sid=1"]))
        try unredacted.close()
        let headers = try onlyLog(in: plain)["log"]?["entries"]?[0]?["request"]?["headers"]
        #expect(header("authorization", in: headers) == "Bearer s3cret")
        #expect(header("cookie", in: headers) == "REDACTED")
    }

    @Test("access_token and configured query parameters are redacted in the URL, queryString, Location and redirectURL")
    func queryRedaction() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = RecordingOptions()
        options.redactedQueryParameters += ["api_key"]
        let recorder = try HARRecorder(directory: folder.path, registry: testRegistry, options: options)
        try recorder.record(capture(.get,
                                    "/items?page=2&access_token=t0k3n&API%5Fkey=k3y&empty=&access_token=again#top",
                                    status: 302, fields: [.location: "https://api.example.org/next?api_key=k3y&x=1"]))
        try recorder.close()
        let entry = try #require(try onlyLog(in: folder)["log"]?["entries"]?[0])
        #expect(entry["request"]?["url"]
            == .string("https://api.example.org/items?page=2&access_token=REDACTED&API%5Fkey=REDACTED&empty="
                       + "&access_token=REDACTED#top"))
        #expect(entry["request"]?["queryString"]
                == [["name": "page", "value": "2"], ["name": "access_token", "value": "REDACTED"],
                    ["name": "API_key", "value": "REDACTED"], ["name": "empty", "value": ""],
                    ["name": "access_token", "value": "REDACTED"]])
        #expect(entry["response"]?["redirectURL"] == "https://api.example.org/next?api_key=REDACTED&x=1")
        #expect(header("location", in: entry["response"]?["headers"])
                == "https://api.example.org/next?api_key=REDACTED&x=1")
        let text = try String(contentsOf: folder.appendingPathComponent(try files(in: folder)[0]), encoding: .utf8)
        for secret in ["t0k3n", "k3y", "again"] { #expect(!text.contains(secret)) }
        // The recording still passes the strict check.
        let checks = try await strictCheck(folder)
        #expect(checks.count == 1 && checks.allSatisfy { !$0.fails(strict: true) && $0.readError == nil })

        // An empty list records the query as it was.
        let plain = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: plain) }
        let unredacted = try HARRecorder(directory: plain.path, registry: testRegistry,
                                         options: RecordingOptions(redactedQueryParameters: []))
        try unredacted.record(capture(.get, "/items?access_token=t0k3n"))
        try unredacted.close()
        #expect(try onlyLog(in: plain)["log"]?["entries"]?[0]?["request"]?["url"]
                == "https://api.example.org/items?access_token=t0k3n")
    }

    @Test(
        "Body paths are redacted through the formats (JSON, YAML, forms), nested and with [*]; Content-Length follows"
    )
    func pathRedaction() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = RecordingOptions(redactedPaths: ["user.password", "$.items[*].token", "$.deep[1].a['odd.key']",
                                                       "*.pin", "password"])
        let recorder = try HARRecorder(directory: folder.path, registry: testRegistry, options: options)
        let json = Array(#"""
        {"user":{"name":"ada","password":"p@ss","age":36},\#
        "items":[{"id":1,"token":"t1"},{"id":2},{"id":3,"token":{"nested":"t3"}}],
         "deep":[{"a":{"odd.key":"keep"}},{"a":{"odd.key":"secret","other":1}}],"card":{"pin":1234},"count":3}
        """#.utf8)
        try recorder.record(capture(.get, "/profile", fields: [.contentType: "application/json; charset=utf-8",
                                                               .contentLength: String(json.count)], body: json))
        try recorder.record(capture(.post, "/login", requestFields: [.contentType: "application/x-www-form-urlencoded"],
                                    requestBody: Array("user=ada&password=hunter2".utf8), status: 204))
        let yaml = Array("user:\n  name: ada\n  password: p@ss\nitems:\n  - token: t1\n".utf8)
        try recorder.record(capture(.get, "/config", fields: [.contentType: "application/yaml"], body: yaml))
        let untouched = Array(#"{ "user" : { "name" : "ada" } }"#.utf8)
        try recorder.record(capture(.get, "/public", fields: [.contentType: "application/json"], body: untouched))
        try recorder.close()

        let recording = try #require(try recordings(in: folder).first)
        let profile = try JSONFormat().decode(try #require(recording.exchanges[0].response.body))
        #expect(profile["user"] == ["name": "ada", "password": "REDACTED", "age": 36])
        #expect(profile["items"] == [["id": 1, "token": "REDACTED"], ["id": 2], ["id": 3, "token": "REDACTED"]])
        #expect(profile["deep"] == [["a": ["odd.key": "keep"]], ["a": ["odd.key": "REDACTED", "other": 1]]])
        #expect(profile["card"] == ["pin": "REDACTED"])
        #expect(profile["count"] == 3)
        #expect(recording.exchanges[0].response.headers["Content-Length"]
                == String(recording.exchanges[0].response.body?.count ?? -1))
        // Re-encoded by the form format, which writes its keys in its own order.
        let form = try testRegistry.decode(try #require(recording.exchanges[1].request.body),
                                           contentType: "application/x-www-form-urlencoded")
        #expect(form == ["password": "REDACTED", "user": "ada"])
        let config = try testRegistry.decode(try #require(recording.exchanges[2].response.body),
                                             contentType: "application/yaml")
        #expect(config == ["user": ["name": "ada", "password": "REDACTED"], "items": [["token": "REDACTED"]]])
        #expect(recording.exchanges[3].response.body == untouched)   // nothing matched: the bytes as received
        let file = try String(contentsOf: folder.appendingPathComponent(try files(in: folder)[0]), encoding: .utf8)
        for secret in ["p@ss", "t1", "t3", "hunter2", "1234", "\"secret\""] { #expect(!file.contains(secret)) }
        #expect(try await strictCheck(folder).allSatisfy { !$0.fails(strict: true) })
    }

    @Test("A body no format can read is kept byte for byte, and the entry says it was not redacted")
    func unreadableBodiesAreKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = try HARRecorder(directory: folder.path, registry: testRegistry,
                                       options: RecordingOptions(redactedPaths: ["password"]))
        let broken = Array(#"{"password": "p@ss", "#.utf8)
        let custom: [UInt8] = Array("password=p@ss".utf8) + [0xFF, 0x00]
        try recorder.record(capture(.get, "/broken", fields: [.contentType: "application/json"], body: broken))
        try recorder.record(capture(.get, "/custom", fields: [.contentType: "application/x-custom"], body: custom))
        try recorder.record(capture(.get, "/unlabelled", body: Array("password=p@ss".utf8)))
        try recorder.close()
        let recording = try #require(try recordings(in: folder).first)
        #expect(recording.exchanges.map(\.response.body) == [broken, custom, Array("password=p@ss".utf8)])
        let entries = try #require(try onlyLog(in: folder)["log"]?["entries"]?.arrayValue)
        #expect(entries[0]["comment"]?.stringValue?.hasPrefix("response body: not redacted (json cannot decode it")
                == true)
        #expect(entries[1]["comment"]
                == "response body: not redacted (no registered format decodes and encodes application/x-custom)")
        #expect(entries[2]["comment"] == "response body: not redacted (no usable Content-Type)")

        // Without redaction paths, nothing is said.
        let quiet = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: quiet) }
        let plain = try HARRecorder(directory: quiet.path, registry: testRegistry)
        try plain.record(capture(.get, "/custom", fields: [.contentType: "application/x-custom"], body: custom))
        try plain.close()
        #expect(try onlyLog(in: quiet)["log"]?["entries"]?[0]?["comment"] == nil)
    }

    @Test("The path syntax: dots, $, [*], [n], *, quoted keys; paths name existing values only")
    func pathSyntax() throws {
        func parse(_ text: String) throws -> [RedactionPath.Step] { try RedactionPath(parsing: text).steps }
        #expect(try parse("user.password") == [.key("user"), .key("password")])
        #expect(try parse("$.items[*].token") == [.key("items"), .any, .key("token")])
        #expect(try parse("$items[12]") == [.key("items"), .index(12)])
        #expect(try parse("*.pin") == [.any, .key("pin")])
        #expect(try parse(#"a["x.y"]['q\'s'].b"#) == [.key("a"), .key("x.y"), .key("q's"), .key("b")])
        #expect(try parse("[0][*]") == [.index(0), .any])

        var value: Value = ["a": [["k": 1], ["k": 2], "text"], "b": ["k": 3], "c": .tagged("x", ["k": 4])]
        value = .object(Value.Object(value.objectValue!.members + [Value.Object.Member(key: "b", value: ["k": 5])]))
        #expect(try RedactionPath(parsing: "a[*].k").apply(to: &value, replacement: "R") == 2)
        #expect(try RedactionPath(parsing: "a[7].k").apply(to: &value, replacement: "R") == 0)
        #expect(try RedactionPath(parsing: "a.k").apply(to: &value, replacement: "R") == 0)
        #expect(try RedactionPath(parsing: "b.k").apply(to: &value, replacement: "R") == 2)   // both members named b
        #expect(try RedactionPath(parsing: "c.k").apply(to: &value, replacement: "R") == 1)   // through a tag
        #expect(try RedactionPath(parsing: "missing.k").apply(to: &value, replacement: "R") == 0)
        #expect(value == .object(Value.Object([
            .init(key: "a", value: [["k": "R"], ["k": "R"], "text"]), .init(key: "b", value: ["k": "R"]),
            .init(key: "c", value: .tagged("x", ["k": "R"])), .init(key: "b", value: ["k": "R"]),
        ])))
    }

    @Test("A file that cannot be created while recording is a typed error; the next record starts afresh")
    func writeFailures() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = try HARRecorder(directory: folder.path, registry: testRegistry)
        try FileManager.default.removeItem(at: folder)
        #expect {
            try recorder.record(capture(.get, "/a"))
        } throws: { error in
            (error as? RecordingError)?.reason == .unwritable
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try recorder.record(capture(.get, "/b"))
        try recorder.close()
        #expect(try recordings(in: folder).map { $0.exchanges.map(\.request.url) } == [["https://api.example.org/b"]])
    }

    static let badOptions: [String: RecordingOptions] = [
        "a..b": RecordingOptions(redactedPaths: ["a..b"]), "items[x]": RecordingOptions(redactedPaths: ["items[x]"]),
        "a['b": RecordingOptions(redactedPaths: ["a['b"]), "$": RecordingOptions(redactedPaths: ["$"]),
        "a]": RecordingOptions(redactedPaths: ["a]"]), "a.": RecordingOptions(redactedPaths: ["a."]),
        "maxExchangesPerFile 0": RecordingOptions(maxExchangesPerFile: 0),
        "maxFileAge 0": RecordingOptions(maxFileAge: .zero),
        "prefix ../x": RecordingOptions(fileNamePrefix: "../x"),
    ]

    @Test("A redaction path that does not parse, or a limit out of range, is an error at creation",
          arguments: badOptions.keys.sorted())
    func invalidOptions(_ name: String) throws {
        let options = try #require(Self.badOptions[name])
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            try HARRecorder(directory: folder.path, registry: testRegistry, options: options)
        } throws: { error in
            (error as? RecordingError)?.reason == .invalidOptions
        }
        #expect(try files(in: folder, suffix: "").isEmpty)
    }

    // MARK: Limits

    @Test("A 3 MiB body is recorded cut to the 1 MiB cap, with a comment; a caller's prefix counts the same")
    func bodyCap() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = try HARRecorder(directory: folder.path, registry: testRegistry)
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 3 << 20)
        try recorder.record(capture(.get, "/big", fields: [.contentType: "text/plain"], body: big))
        try recorder.record(capture(.get, "/streamed", fields: [.contentType: "text/plain"],
                                    body: Array(big.prefix(1 << 20)), bodyByteCount: 3 << 20))
        // A coded body that decodes past the cap is kept as received, still coded.
        let bomb = Compressor().compress(big, coding: .gzip)
        try recorder.record(capture(.get, "/coded", fields: [.contentType: "text/plain", .contentEncoding: "gzip"],
                                    body: bomb))
        try recorder.close()
        let recording = try #require(try recordings(in: folder).first)
        #expect(recording.exchanges[0].response.body == Array(big.prefix(1 << 20)))
        #expect(recording.exchanges[1].response.body == Array(big.prefix(1 << 20)))
        #expect(recording.exchanges[2].response.body == bomb)
        let entries = try #require(try onlyLog(in: folder)["log"]?["entries"]?.arrayValue)
        #expect(entries[0]["comment"]
                == "response body: cut to 1048576 of 3145728 bytes (maxRecordedBodyBytes 1048576)")
        #expect(entries[1]["comment"] == entries[0]["comment"])
        #expect(entries[0]["response"]?["content"]?["size"]?.integerValue == 3 << 20)
        #expect(entries[2]["comment"]
                == .string("response body: Content-Encoding gzip not undone (it decodes to more than "
                           + "maxRecordedBodyBytes (1048576)); stored as received"))
        #expect(entries[2]["response"]?["content"]?["encoding"] == "base64")
    }

    // MARK: Concurrency and files

    @Test("8 tasks × 50 records: every exchange exactly once, every file complete and passing the check")
    func concurrentRecording() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = try HARRecorder(directory: folder.path, registry: testRegistry,
                                       options: RecordingOptions(maxExchangesPerFile: 37, redactedPaths: ["secret"]))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<50 {
                        let body = #"{"task":\#(task),"index":\#(index),"secret":"x"}"#
                        try recorder.record(self.capture(.get, "/t/\(task)/\(index)",
                                                         fields: [.contentType: "application/json"],
                                                         body: Array(body.utf8)))
                    }
                }
            }
            try await group.waitForAll()
        }
        try recorder.close()
        #expect(recorder.recordedCount == 400)
        let recordings = try recordings(in: folder)
        #expect(recordings.count == 11)   // 10 full files of 37 and one of 30
        #expect(recordings.map(\.exchanges.count).reduce(0, +) == 400)
        let urls = recordings.flatMap(\.exchanges).map(\.request.url)
        #expect(Set(urls).count == 400)
        #expect(Set(urls)
                == Set((0..<8).flatMap { task in (0..<50).map { "https://api.example.org/t/\(task)/\($0)" } }))
        #expect(recordings.flatMap(\.exchanges).allSatisfy {
            String(decoding: $0.response.body ?? [], as: UTF8.self).hasSuffix(#""secret":"REDACTED"}"#)
        })
        let checks = try await strictCheck(folder)
        #expect(checks.count == 11 && checks.allSatisfy { !$0.fails(strict: true) && $0.readError == nil })
    }

    @Test("A .partial file is passed over by the checker; a folder that cannot be created throws")
    func partialFilesAndBadFolders() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = try HARRecorder(directory: folder.appendingPathComponent("deeper/still").path,
                                       registry: testRegistry)
        try recorder.record(capture(.get, "/a"))
        let nested = folder.appendingPathComponent("deeper/still")
        #expect(try files(in: nested, suffix: ".partial").count == 1)
        #expect(try FixtureFiles.discover([folder.path]).isEmpty)
        #expect(try await strictCheck(folder).isEmpty)
        try recorder.close()
        #expect(try FixtureFiles.discover([folder.path]).map { URL(fileURLWithPath: $0.path).lastPathComponent }
                == (try files(in: nested)))

        let plainFile = folder.appendingPathComponent("file.txt")
        try Data("x".utf8).write(to: plainFile)
        for path in [plainFile.path, plainFile.appendingPathComponent("sub").path] {
            #expect {
                try HARRecorder(directory: path, registry: testRegistry)
            } throws: { error in
                (error as? RecordingError)?.reason == .unwritable && (error as? RecordingError)?.path == path
            }
        }
    }
}
