import HTTPTypes
import Parley
import ParleyHTTP
import Testing

/// The pipeline's steps, one at a time, with the core's own formats and a test content coding.
@Suite("The response pipeline")
struct ResponsePipelineTests {
    /// "Coding" that reverses the bytes, behind a `rev:` signature: enough to see step 1 work.
    struct ReversingDecoder: ContentDecoder {
        var tokens: [String] { ["x-rev"] }
        func looksEncoded(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("rev:".utf8)) }
        func decode(_ bytes: [UInt8], maximumBytes: Int) throws(ContentDecodingError) -> [UInt8] {
            let decoded = Array(bytes.dropFirst(4).reversed())
            guard decoded.count <= maximumBytes else {
                throw ContentDecodingError(.limitExceeded(maximum: maximumBytes), "too long")
            }
            return decoded
        }
    }

    let pipeline = ResponsePipeline(registry: .builtIn, contentCodings: ContentCodings([ReversingDecoder()]))

    func response(_ fields: [HTTPField.Name: String], status: Int = 200) -> HTTPResponse {
        var headers = HTTPFields()
        for (name, value) in fields { headers[name] = value }
        return HTTPResponse(status: .init(code: status), headerFields: headers)
    }

    @Test("Step 1: a coding is undone and its fields dropped; a body stored decoded is noted")
    func contentCoding() throws {
        let coded = pipeline.run(response([.contentType: "text/plain", .contentEncoding: "x-rev", .contentLength: "9"]),
                                 body: Array("rev:olleh".utf8), request: nil)
        #expect(try coded.get() == "hello")
        #expect(coded.findings.isEmpty)
        #expect(coded.response.headerFields[.contentEncoding] == nil
                && coded.response.headerFields[.contentLength] == nil)

        let stored = pipeline.run(response([.contentType: "text/plain", .contentEncoding: "x-rev"]),
                                  body: Array("hello".utf8), request: nil)
        #expect(try stored.get() == "hello")
        #expect(stored.findings.map(\.kind) == [.storedDecoded])
    }

    @Test("Step 1: an unknown coding stops with a typed error the client and the checker share")
    func unsupportedCoding() {
        let outcome = pipeline.run(response([.contentType: "text/plain", .contentEncoding: "br"]), body: [1, 2, 3],
                                   request: nil)
        #expect(outcome.findings.map(\.kind) == [.unsupportedEncoding])
        #expect(outcome.error?.code == .unsupportedContentEncoding)
        #expect(outcome.error?.impliedStatus == .unsupportedMediaType)
        #expect(throws: ParleyError.self) {
            try pipeline.contentCodingStep.undo([1, 2, 3], fields: outcome.response.headerFields,
                                                registry: pipeline.registry)
        }
    }

    @Test("Step 1: decompression is bounded by the matched format's body limit, not only the coding limit")
    func decompressionBoundedByBodyLimit() {
        let small = ResponsePipeline(registry: Registry.builtIn.settingLimits(DecodingLimits(maxBodyBytes: 4),
                                                                              forFormat: "text"),
                                     contentCodings: ContentCodings([ReversingDecoder()]))
        let outcome = small.run(response([.contentType: "text/plain", .contentEncoding: "x-rev"]),
                                body: Array("rev:olleh".utf8), request: nil)
        #expect(outcome.findings.map(\.kind) == [.limitExceeded])
        #expect(outcome.error?.code == .limitExceeded)
    }

    @Test("Step 2: no content for HEAD, 1xx, 204, 205 and 304, whatever was stored; 206 kept as bytes")
    func bodyPresence() throws {
        let all = ResponsePipeline(registry: .builtIn,
                validator: ResponseValidator(acceptableStatusCodes: ResponseValidator.allStatusCodes))
        for status in [103, 204, 205, 304] {
            let outcome = all.run(response([.contentType: "application/json"], status: status), body: Array("{".utf8),
                                  request: nil)
            #expect(try outcome.get() == .null, "\(status)")
            #expect(outcome.findings.map(\.kind) == [.noBody])
        }
        let head = HTTPRequest(method: .head, scheme: "https", authority: "example.org", path: "/")
        #expect(try all.run(response([.contentType: "application/json"], status: 200), body: Array("{".utf8),
                            request: head).get() == .null)
        let partial = all.run(response([.contentType: "text/plain"], status: 206), body: [0xFF, 0x00], request: nil)
        #expect(try partial.get() == .bytes([0xFF, 0x00]))
        #expect(partial.findings.map(\.kind) == [.noBody])
    }

    @Test("Step 2: an unacceptable status stops, and the error still carries the decoded error body")
    func unacceptableStatus() {
        let outcome = pipeline.run(response([.contentType: "text/plain"], status: 404), body: Array("gone".utf8),
                                   request: nil)
        #expect(outcome.findings.map(\.kind) == [.unacceptableStatus])
        #expect(outcome.error?.code == .unacceptableStatus)
        #expect(outcome.error?.decodedBody == "gone")
        #expect(outcome.output == nil)
    }

    @Test("Step 3: acceptable content types are matched by the registry's rules, with a matcher built once")
    func acceptableTypes() throws {
        var validator = ResponseValidator(acceptableContentTypes: ["text/*"])
        #expect(validator.accepts(contentType: "text/csv"))
        #expect(!validator.accepts(contentType: "application/octet-stream"))
        validator.acceptableContentTypes = ["application/octet-stream"]
        #expect(validator.accepts(contentType: "application/octet-stream"))
        let strict = ResponsePipeline(registry: .builtIn,
                                      validator: ResponseValidator(acceptableContentTypes: ["text/plain"]))
        let refused = strict.run(response([.contentType: "application/octet-stream"]), body: [1], request: nil)
        #expect(refused.error?.code == .unacceptableContentType)
        #expect(refused.findings.map(\.kind) == [.unknownContentType])
    }

    @Test("Step 3: no decoder names the registered formats; an unlabelled body says what it looks like")
    func noDecoder() {
        let outcome = pipeline.run(response([.contentType: "application/json"]), body: Array("{}".utf8), request: nil)
        #expect(outcome.error?.code == .unacceptableContentType)
        #expect(outcome.error?.message.contains("registered formats: text, form, raw") == true)
        let page = pipeline.run(response([:]), body: Array("<!DOCTYPE html><html></html>".utf8), request: nil)
        #expect(page.error?.code == .missingContentType)
        #expect(page.findings.first?.message.contains("it looks like text/html") == true)
    }

    @Test("Step 4: charsets the core does not know go through the converter and reach the format as UTF-8")
    func charset() throws {
        let outcome = pipeline.run(response([.contentType: "text/plain; charset=shift_jis"]),
                                   body: [0x82, 0xB1, 0x82, 0xF1], request: nil)
        #expect(try outcome.get() == "こん")
        let unknown = pipeline.run(response([.contentType: "text/plain; charset=x-no-such"]), body: Array("hi".utf8),
                                   request: nil)
        #expect(unknown.findings.map(\.kind) == [.unsupportedCharset])
        #expect(unknown.error != nil)
    }

    @Test(
        "Steps 5 and 6: a Decodable is never read from text or raw bytes, and the error says what the body looks like"
    )
    func decodableNeedsAStructuredFormat() {
        struct User: Decodable, Sendable { var name: String }
        let outcome = pipeline.run(User.self, response([.contentType: "application/octet-stream"]),
                                   body: Array("<!DOCTYPE html><html></html>".utf8), request: nil)
        let message = outcome.error?.message ?? ""
        #expect(outcome.error?.code == .unacceptableContentType)
        #expect(message.contains("labelled application/octet-stream"))
        #expect(message.contains("User needs a structured format (registered structured formats: form)"))
        #expect(message.contains("looks like text/html"))
    }
}
