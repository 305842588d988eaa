import HTTPTypes
import Parley
import ParleyClient
import ParleyHTTP
import Testing

@Suite struct ResponseSerializerTests {
    let serializer = ValueResponseSerializer(registry: .builtIn)

    func response(_ status: Int, _ contentType: String?) -> HTTPResponse {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        return HTTPResponse(status: .init(code: status), headerFields: fields)
    }

    func error(_ body: () throws -> Value) -> ParleyError? {
        do { _ = try body(); return nil } catch { return error as? ParleyError }
    }

    @Test func decodesAnAcceptableResponse() throws {
        let value = try serializer.serialize(
            response(200, "text/plain; charset=iso-8859-1"), body: [0x63, 0x61, 0x66, 0xE9], request: nil)
        #expect(value == "café")
    }

    @Test func unacceptableStatusCarriesResponseBodyAndExcerpt() throws {
        let body = Array("{\"error\": \"nope\"}\n\u{1B}[31m".utf8)
        let failure = try #require(
            error { try serializer.serialize(response(404, "application/problem+json"), body: body, request: nil) })
        #expect(failure.code == .unacceptableStatus)
        #expect(failure.response?.status.code == 404)
        #expect(failure.body == body)
        #expect(failure.description.contains("404"))
        #expect(failure.description.contains("{\"error\": \"nope\"}··[31m"), "control characters are replaced")
    }

    @Test func unacceptableContentTypeNamesReceivedAndAcceptable() throws {
        let failure = try #require(
            error { try serializer.serialize(response(200, "image/png"), body: [1], request: nil) })
        #expect(failure.code == .unacceptableContentType)
        #expect(failure.receivedContentType == "image/png")
        #expect(failure.acceptableTypes.contains(.textPlain))
        #expect(failure.message.contains("image/png") && failure.message.contains("text/plain"))
    }

    @Test func acceptableContentTypesMatchByRulesNotStrings() throws {
        let strict = ValueResponseSerializer(
            registry: .builtIn, validator: ResponseValidator(acceptableContentTypes: ["text/*"]))
        #expect(
            try strict.serialize(response(200, "text/csv; charset=utf-8"), body: Array("a,b".utf8), request: nil)
                == "a,b")
        let failure = try #require(
            error { try strict.serialize(response(200, "application/octet-stream"), body: [1], request: nil) })
        #expect(failure.code == .unacceptableContentType)
    }

    @Test func missingAndMalformedContentTypes() throws {
        #expect(
            error { try serializer.serialize(response(200, nil), body: [1], request: nil) }?.code == .missingContentType
        )
        let malformed = try #require(
            error { try serializer.serialize(response(200, "text/plain;;charset"), body: [1], request: nil) })
        #expect(malformed.code == .malformedContentType)
        #expect(malformed.message.contains("byte"))
    }

    @Test func decodeFailuresCarryTheLocation() throws {
        let failure = try #require(
            error { try serializer.serialize(response(200, "text/plain"), body: [0x61, 0xFF], request: nil) })
        #expect(failure.code == .decodingFailed)
        #expect(failure.location?.byteOffset == 1)
        #expect(failure.format == "text")
        #expect(failure.body == [0x61, 0xFF])
    }

    @Test func limitFailuresSayWhichLimit() throws {
        let small = ValueResponseSerializer(
            registry: Registry.builtIn.settingLimits(DecodingLimits(maxBodyBytes: 2), forFormat: "text"))
        let failure = try #require(
            error { try small.serialize(response(200, "text/plain"), body: [0x61, 0x62, 0x63], request: nil) })
        #expect(failure.code == .limitExceeded)
        #expect(failure.limit == FormatError.Limit(name: "maxBodyBytes", maximum: 2, actual: 3))
        #expect(failure.impliedStatus == .contentTooLarge)
    }

    @Test func emptyBodiesFollowThePolicy() throws {
        #expect(try serializer.serialize(response(204, nil), body: [], request: nil) == .null)
        #expect(try serializer.serialize(response(205, nil), body: [], request: nil) == .null)
        let head = HTTPRequest(method: .head, scheme: "https", authority: "example.com", path: "/")
        #expect(try serializer.serialize(response(200, "text/plain"), body: [], request: head) == .null)
        // An empty 200 to GET is decoded as what it is: empty text.
        #expect(try serializer.serialize(response(200, "text/plain"), body: [], request: nil) == "")
        // Nothing claims content: an empty body without a Content-Type is accepted, unless the policy says otherwise.
        #expect(try serializer.serialize(response(200, nil), body: [], request: nil) == .null)
        let labelled = ValueResponseSerializer(
            registry: .builtIn,
            validator: ResponseValidator(emptyBodyPolicy: EmptyBodyPolicy(allowsUnlabelledEmptyBodies: false)))
        #expect(
            error { try labelled.serialize(response(200, nil), body: [], request: nil) }?.code == .missingContentType)
        // 304 has no content by HTTP, whatever bytes came with it.
        let notModified = ValueResponseSerializer(
            registry: .builtIn, validator: ResponseValidator(acceptableStatusCodes: [200, 304]))
        #expect(
            try notModified.serialize(response(304, "application/octet-stream"), body: [1, 2], request: nil) == .null)
        #expect(
            error { try serializer.serialize(response(304, "application/octet-stream"), body: [], request: nil) }?.code
                == .unacceptableStatus)
        let lenient = ValueResponseSerializer(
            registry: .builtIn,
            validator: ResponseValidator(emptyBodyPolicy: EmptyBodyPolicy(emptyMeansValue: [:])))
        #expect(try lenient.serialize(response(200, nil), body: [], request: nil) == [:])
    }

    @Test func excerptsAreShortAndSafe() {
        let long = [UInt8](repeating: 0x41, count: 1_000)
        let excerpt = ParleyError.excerpt(of: long)
        #expect(excerpt.count == 121)
        #expect(excerpt.hasSuffix("…"))
        #expect(ParleyError.excerpt(of: [0xFF, 0x41, 0x0A]) == "\u{FFFD}A·")
    }
}
