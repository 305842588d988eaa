import HTTPTypes
import Parley
import ParleyHTTP
import ParleyCompression
import ParleyCSV
import ParleyJSON
import ParleyMessagePack
import ParleyPropertyList
import ParleyXML
import ParleyYAML

/// The shared live table: every case a Parley server integration must pass, run by
/// ``LiveRunner`` against a server that implements ``RouteContract``.
///
/// ```swift
/// @Test(arguments: LiveTable.cases)
/// func liveCase(_ testCase: LiveCase) async throws {
///     try await withMyServer { baseURL in
///         let failures = await LiveRunner(baseURL: baseURL).run(testCase)
///         #expect(failures.isEmpty, "\(failures)")
///     }
/// }
/// ```
public enum LiveTable {
    /// Every case, in a stable order; names are unique.
    public static var cases: [LiveCase] {
        responseFormats + requestFormats + negotiation + failures + contentCodings + head + concurrency
    }

    /// The six built-in formats' encodable types, as a server answers them.
    public static let encodableTypes = ["application/json", "application/yaml", "application/xml",
                                        "application/x-plist", "application/x-bplist", "application/msgpack",
                                        "text/csv"]

    // MARK: Answers in every format

    /// `GET /resource` and `GET /value` in each encodable type.
    public static var responseFormats: [LiveCase] {
        var cases: [LiveCase] = []
        for type in encodableTypes {
            let short = type.split(separator: "/").last.map(String.init) ?? type
            cases.append(LiveCase("resource-as-\(short)", .get, RouteContract.Path.resource,
                                  headerFields: [.accept: type], status: 200, contentType: type, varyAccept: true,
                                  expectedBody: type == "text/csv" ? .text(csvItems) : .items))
            cases.append(LiveCase("value-as-\(short)", .get, RouteContract.Path.value,
                                  headerFields: [.accept: type], status: 200, contentType: type, varyAccept: true,
                                  expectedBody: valueExpectation(type)))
        }
        cases.append(LiveCase("binary-plist-is-bplist00", .get, RouteContract.Path.resource,
                              headerFields: [.accept: "application/x-bplist"], status: 200,
                              contentType: "application/x-bplist", varyAccept: true,
                              expectedBody: .prefix(Array("bplist00".utf8))))
        return cases
    }

    /// `POST /upload` and `POST /echo` with a body in each decodable format.
    public static var requestFormats: [LiveCase] {
        var cases: [LiveCase] = []
        let itemsValue = (try? ValueEncoder().encode(RouteContract.items)) ?? .null
        // Formats whose values carry types decode straight into `[Item]`.
        let bodies: [(String, String, [UInt8])] = [
            ("json", "application/json", encode(JSONFormat(), itemsValue)),
            ("yaml", "application/yaml", encode(YAMLFormat(), itemsValue)),
            ("plist", "application/x-plist", encode(PropertyListFormat(), itemsValue, as: "application/x-plist")),
            ("bplist", "application/x-bplist", encode(PropertyListFormat(), itemsValue, as: "application/x-bplist")),
            ("msgpack", "application/msgpack", encode(MessagePackFormat(), itemsValue)),
            ("json-suffix", "application/vnd.example+json", encode(JSONFormat(), itemsValue)),
            ("yaml-alias", "application/x-yaml", encode(YAMLFormat(), itemsValue)),
        ]
        for (short, type, body) in bodies {
            cases.append(LiveCase("upload-\(short)", .post, RouteContract.Path.upload,
                                  headerFields: [.contentType: type, .accept: "application/json"], body: body,
                                  status: 200, contentType: "application/json", varyAccept: true,
                                  expectedBody: .receipt(receipt)))
        }
        // Every format echoed back as JSON: the answer means what the format decodes the body to
        // (XML and CSV carry text only, XML a root element, so their values are strings).
        let xmlBody = Array(("<items><item id=\"1\"><name>alpha</name></item>"
                             + "<item id=\"2\"><name>beta</name></item></items>").utf8)
        let csvBody = Array("name,count\r\nalpha,1\r\nbeta,2\r\n".utf8)
        let echoes: [(String, String, [UInt8], Value)] = [
            ("json", "application/json", encode(JSONFormat(), RouteContract.value), RouteContract.value),
            ("yaml", "application/yaml", encode(YAMLFormat(), RouteContract.value), RouteContract.value),
            ("msgpack", "application/msgpack", encode(MessagePackFormat(), RouteContract.value), RouteContract.value),
            ("plist", "application/x-plist",
             encode(PropertyListFormat(), RouteContract.value, as: "application/x-plist"), RouteContract.value),
            ("bplist", "application/x-bplist",
             encode(PropertyListFormat(), RouteContract.value, as: "application/x-bplist"), RouteContract.value),
            ("xml", "application/xml", xmlBody,
             ["items": ["item": [["@id": "1", "name": "alpha"], ["@id": "2", "name": "beta"]]]]),
            ("csv", "text/csv; header=present", csvBody,
             [["name": "alpha", "count": "1"], ["name": "beta", "count": "2"]]),
        ]
        for (short, type, body, expected) in echoes {
            cases.append(LiveCase("echo-\(short)-as-json", .post, RouteContract.Path.echo,
                                  headerFields: [.contentType: type, .accept: "application/json"], body: body,
                                  status: 200, contentType: "application/json", varyAccept: true,
                                  expectedBody: .value(expected)))
        }
        cases.append(LiveCase("echo-json-as-yaml", .post, RouteContract.Path.echo,
                              headerFields: [.contentType: "application/json", .accept: "application/yaml"],
                              body: encode(JSONFormat(), RouteContract.value), status: 200,
                              contentType: "application/yaml", varyAccept: true,
                              expectedBody: .value(RouteContract.value)))
        cases.append(LiveCase("upload-answer-as-msgpack", .post, RouteContract.Path.upload,
                              headerFields: [.contentType: "application/json", .accept: "application/msgpack"],
                              body: encode(JSONFormat(), itemsValue), status: 200, contentType: "application/msgpack",
                              varyAccept: true, expectedBody: .receipt(receipt)))
        return cases
    }

    // MARK: Negotiation

    /// q-values, wildcards, and what no `Accept` means.
    public static var negotiation: [LiveCase] {
        let chosen: [(String, String, String)] = [
            ("no-accept-is-json", "", "application/json"),
            ("any-is-json", "*/*", "application/json"),
            ("bare-star-is-json", "*", "application/json"),
            ("q-prefers-yaml", "application/json;q=0.5, application/yaml", "application/yaml"),
            ("q-zero-refuses-json", "application/json;q=0, application/msgpack;q=0.2", "application/msgpack"),
            ("type-wildcard-loses-to-concrete", "application/*;q=0.1, text/csv;q=0.9", "text/csv"),
            ("specific-range-wins", "application/*;q=0.2, application/json;q=0.1, application/xml;q=0.5",
             "application/xml"),
            ("any-low-concrete-high", "*/*;q=0.1, application/msgpack", "application/msgpack"),
            ("unknown-then-yaml", "image/png, application/yaml;q=0.3", "application/yaml"),
            ("case-insensitive", "APPLICATION/YAML", "application/yaml"),
            ("invalid-element-skipped", "application/json;q=2, application/yaml;q=0.4", "application/yaml"),
        ]
        var cases = chosen.map { name, accept, type in
            LiveCase(name, .get, RouteContract.Path.resource, headerFields: accept.isEmpty ? [:] : [.accept: accept],
                     status: 200, contentType: type, varyAccept: true,
                     expectedBody: type == "text/csv" ? .text(csvItems) : .items)
        }
        cases.append(LiveCase("not-acceptable-lists-types", .get, RouteContract.Path.resource,
                              headerFields: [.accept: "image/png"], status: 406,
                              contentType: "application/problem+json", varyAccept: true,
                              expectedBody: .problem(status: 406, mentions: encodableTypes)))
        cases.append(LiveCase("not-acceptable-q-zero", .get, RouteContract.Path.value,
                              headerFields: [.accept: "application/json;q=0, image/*"], status: 406,
                              contentType: "application/problem+json", varyAccept: true,
                              expectedBody: .problem(status: 406, mentions: ["application/json"])))
        return cases
    }

    // MARK: Failures as problems

    /// 415, 413, 400: the problem document, in a format the client accepts.
    public static var failures: [LiveCase] {
        let json = Array("[{\"id\":1}]".utf8)
        return [
            LiveCase("unsupported-type-415", .post, RouteContract.Path.upload,
                     headerFields: [.contentType: "image/png"], body: [0x89, 0x50, 0x4E, 0x47], status: 415,
                     contentType: "application/problem+json", varyAccept: true,
                     requiredFields: [(.accept, "application/json"), (.accept, "text/csv")],
                     expectedBody: .problem(status: 415, mentions: ["image/png"])),
            LiveCase("missing-content-type-415", .post, RouteContract.Path.upload, body: encode(JSONFormat(), [:]),
                     status: 415, contentType: "application/problem+json", varyAccept: true,
                     requiredFields: [(.accept, "application/json")],
                     expectedBody: .problem(status: 415, mentions: ["application/json"])),
            LiveCase("problem-in-yaml-when-asked", .post, RouteContract.Path.upload,
                     headerFields: [.contentType: "image/png", .accept: "application/yaml"], body: [1, 2, 3],
                     status: 415, contentType: "application/yaml", varyAccept: true,
                     expectedBody: .problem(status: 415, mentions: ["image/png"])),
            LiveCase("problem-in-xml-when-asked", .post, RouteContract.Path.upload,
                     headerFields: [.contentType: "image/png", .accept: "application/xml"], body: [1, 2, 3],
                     status: 415, contentType: "application/problem+xml", varyAccept: true,
                     expectedBody: .problem(status: 415, mentions: ["image/png"])),
            LiveCase("body-over-limit-413", .post, RouteContract.Path.upload,
                     headerFields: [.contentType: "application/json"], body: oversizedJSON, status: 413,
                     contentType: "application/problem+json", expectedBody: .problem(status: 413, mentions: [])),
            LiveCase("malformed-json-400", .post, RouteContract.Path.upload,
                     headerFields: [.contentType: "application/json"], body: Array("[{\"id\":".utf8), status: 400,
                     contentType: "application/problem+json", varyAccept: true,
                     expectedBody: .problem(status: 400, mentions: [])),
            LiveCase("wrong-shape-400", .post, RouteContract.Path.upload,
                     headerFields: [.contentType: "application/json"], body: json, status: 400,
                     contentType: "application/problem+json", varyAccept: true,
                     expectedBody: .problem(status: 400, mentions: [])),
            LiveCase("malformed-accept-400", .get, RouteContract.Path.resource,
                     headerFields: [.accept: "application/"], status: 400, contentType: "application/problem+json",
                     varyAccept: true, expectedBody: .problem(status: 400, mentions: ["Accept"])),
            LiveCase("malformed-accept-quote-400", .get, RouteContract.Path.value,
                     headerFields: [.accept: "text/csv;charset=\"utf-8"], status: 400,
                     contentType: "application/problem+json", varyAccept: true,
                     expectedBody: .problem(status: 400, mentions: ["Accept"])),
            LiveCase("malformed-content-type-400", .post, RouteContract.Path.upload,
                     headerFields: [.contentType: "application/"], body: json, status: 400,
                     contentType: "application/problem+json", varyAccept: true,
                     expectedBody: .problem(status: 400, mentions: ["Content-Type"])),
            LiveCase("malformed-content-type-quote-400", .post, RouteContract.Path.echo,
                     headerFields: [.contentType: "application/json; charset=\"utf-8"], body: json, status: 400,
                     contentType: "application/problem+json", varyAccept: true,
                     expectedBody: .problem(status: 400, mentions: ["Content-Type"])),
        ]
    }

    // MARK: Content codings of request bodies

    /// gzip and deflate bodies, a gzip bomb, a corrupt stream, an unknown coding.
    public static var contentCodings: [LiveCase] {
        let itemsJSON = encode(JSONFormat(), (try? ValueEncoder().encode(RouteContract.items)) ?? .null)
        let compressor = Compressor()
        var corrupt = compressor.compress(itemsJSON, coding: .gzip)
        corrupt.replaceSubrange(10..<min(corrupt.count, 20),
                                with: [UInt8](repeating: 0xFF, count: min(corrupt.count, 20) - 10))
        // 16 MiB of spaces (valid JSON whitespace around a value) compresses to about 16 KB.
        let bomb = compressor.compress([UInt8](repeating: 0x20, count: 16 << 20) + Array("[]".utf8), coding: .gzip)
        return [
            LiveCase("gzip-body", .post, RouteContract.Path.upload,
                     headerFields: [.contentType: "application/json", .contentEncoding: "gzip",
                                    .accept: "application/json"],
                     body: compressor.compress(itemsJSON, coding: .gzip), status: 200, contentType: "application/json",
                     varyAccept: true, expectedBody: .receipt(receipt)),
            LiveCase("deflate-body", .post, RouteContract.Path.upload,
                     headerFields: [.contentType: "application/json", .contentEncoding: "deflate",
                                    .accept: "application/yaml"],
                     body: compressor.compress(itemsJSON, coding: .deflate), status: 200,
                     contentType: "application/yaml", varyAccept: true, expectedBody: .receipt(receipt)),
            LiveCase("gzip-yaml-body", .post, RouteContract.Path.echo,
                     headerFields: [.contentType: "application/yaml", .contentEncoding: "gzip"],
                     body: compressor.compress(encode(YAMLFormat(), RouteContract.value), coding: .gzip), status: 200,
                     contentType: "application/json", varyAccept: true, expectedBody: .value(RouteContract.value)),
            LiveCase("gzip-bomb-413", .post, RouteContract.Path.upload,
                     headerFields: [.contentType: "application/json", .contentEncoding: "gzip"], body: bomb,
                     status: 413, contentType: "application/problem+json",
                     expectedBody: .problem(status: 413, mentions: [])),
            LiveCase("corrupt-gzip-400", .post, RouteContract.Path.upload,
                     headerFields: [.contentType: "application/json", .contentEncoding: "gzip"], body: corrupt,
                     status: 400, contentType: "application/problem+json",
                     expectedBody: .problem(status: 400, mentions: [])),
            LiveCase("unknown-coding-415", .post, RouteContract.Path.upload,
                     headerFields: [.contentType: "application/json", .contentEncoding: "br"], body: itemsJSON,
                     status: 415, contentType: "application/problem+json", requiredFields: [(.acceptEncoding, "gzip")],
                     expectedBody: .problem(status: 415, mentions: ["br"])),
        ]
    }

    // MARK: HEAD

    /// HEAD answers the GET's head without a body, problems included (the server answers HEAD on
    /// every GET route).
    public static var head: [LiveCase] {
        [
            LiveCase("head-resource-yaml", .head, RouteContract.Path.resource,
                     headerFields: [.accept: "application/yaml"],
                     status: 200, contentType: "application/yaml", varyAccept: true, expectedBody: .empty),
            LiveCase("head-resource-json", .head, RouteContract.Path.resource,
                     status: 200, contentType: "application/json", varyAccept: true,
                     requiredFields: [(.contentLength, "")], expectedBody: .empty),
            LiveCase("head-not-acceptable", .head, RouteContract.Path.resource, headerFields: [.accept: "image/png"],
                     status: 406, varyAccept: true, expectedBody: .empty),
        ]
    }

    // MARK: Concurrency

    /// Many tasks at once (bounded: 16 tasks × 8 requests each), answers checked one by one.
    public static var concurrency: [LiveCase] {
        let load = LiveCase.Load(tasks: 16, requestsPerTask: 8)
        let itemsValue = (try? ValueEncoder().encode(RouteContract.items)) ?? .null
        return [
            LiveCase("concurrent-get-msgpack", .get, RouteContract.Path.resource,
                     headerFields: [.accept: "application/msgpack"], status: 200, contentType: "application/msgpack",
                     varyAccept: true, expectedBody: .items, load: load),
            LiveCase("concurrent-upload-yaml-as-xml", .post, RouteContract.Path.upload,
                     headerFields: [.contentType: "application/yaml", .accept: "application/xml"],
                     body: encode(YAMLFormat(), itemsValue), status: 200, contentType: "application/xml",
                     varyAccept: true, expectedBody: .receipt(receipt), load: load),
            LiveCase("concurrent-not-acceptable", .get, RouteContract.Path.value, headerFields: [.accept: "image/png"],
                     status: 406, contentType: "application/problem+json", varyAccept: true,
                     expectedBody: .problem(status: 406, mentions: ["application/json"]), load: load),
        ]
    }

    // MARK: Data

    /// ``RouteContract/items`` in CSV, as a server writes it (header row, CRLF).
    public static let csvItems = "id,name,price,active\r\n1,alpha,1.5,true\r\n2,beta,20.25,false\r\n"

    static let receipt = RouteContract.Receipt(for: RouteContract.items)

    /// A JSON array one byte over ``RouteContract/maxRequestBodyBytes``.
    static var oversizedJSON: [UInt8] {
        let size = RouteContract.maxRequestBodyBytes + 1
        return Array("[".utf8) + [UInt8](repeating: 0x20, count: size - 2) + Array("]".utf8)
    }

    private static func valueExpectation(_ type: String) -> LiveCase.BodyExpectation {
        type == "text/csv" ? .text("name,count\r\nalpha,1\r\nbeta,2\r\n") : .value(RouteContract.value)
    }

    private static func encode(_ format: some Format, _ value: Value, as type: MediaType? = nil) -> [UInt8] {
        (try? format.encode(value, as: type)) ?? []
    }
}
