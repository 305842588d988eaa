import Foundation
import HTTPTypes
import Parley
import ParleyHTTP
import ParleyClient
import ParleyJSON
import Testing

/// A custom request serializer: wraps the default one and signs what it built with a `Date`
/// field and a `Signature` field, an HMAC-SHA256 over the method, the path with its query, the
/// date and the SHA-256 of the body (the scheme of AWS SigV4 or HTTP Message Signatures, cut
/// down to the parts this test needs).
struct SigningRequestSerializer: RequestSerializer {
    static let signatureField = HTTPField.Name("Signature")!

    var base: ParameterRequestSerializer
    var keyID: String
    var key: [UInt8]
    /// The `Date` field to send (IMF-fixdate); fixed so the signature is reproducible.
    var date: String

    func makeRequest(method: HTTPRequest.Method, url: URL, parameters: Value?,
                     headerFields: HTTPFields) throws(ParleyError) -> SerializedRequest {
        try sign(base.makeRequest(method: method, url: url, parameters: parameters, headerFields: headerFields))
    }

    func makeRequest(method: HTTPRequest.Method, url: URL, multipart form: MultipartFormData,
                     headerFields: HTTPFields) throws(ParleyError) -> SerializedRequest {
        try sign(base.makeRequest(method: method, url: url, multipart: form, headerFields: headerFields))
    }

    func sign(_ built: SerializedRequest) throws(ParleyError) -> SerializedRequest {
        var signed = built
        signed.request.headerFields[.date] = date
        let body: [UInt8]
        do {
            body = try built.body?.collect() ?? []
        } catch {
            throw ParleyError(.invalidRequest, "cannot read the body to sign it: \(error)", underlying: [error])
        }
        let signature = Self.signature(method: built.request.method.rawValue, path: built.request.path ?? "/",
                                       date: date, body: body, key: key)
        signed.request.headerFields[Self.signatureField] =
            #"keyId="\#(keyID)",algorithm="hmac-sha256",signature="\#(signature)""#
        return signed
    }

    static func signature(method: String, path: String, date: String, body: [UInt8], key: [UInt8]) -> String {
        let text = "\(method)\n\(path)\n\(date)\n\(SHA256.hex(SHA256.hash(body)))"
        return SHA256.hex(SHA256.hmac(key: key, message: Array(text.utf8)))
    }
}

@Suite struct SigningRequestSerializerTests {
    static let key = Array("secret-key".utf8)
    static let date = "Tue, 15 Nov 1994 08:12:31 GMT"

    let signer = SigningRequestSerializer(base: ParameterRequestSerializer(registry: jsonRegistry), keyID: "client-1",
                                          key: key, date: date)

    /// A transport that checks the signature the way a server would, from what reached it,
    /// and answers `{"verified": …, "signature": …}`.
    func verifyingTransport(recorder: Recorder) -> InMemoryTransport {
        InMemoryTransport { request, body in
            recorder.record(request, body)
            let expected = SigningRequestSerializer.signature(
                method: request.method.rawValue, path: request.path ?? "", date: request.headerFields[.date] ?? "",
                body: body, key: Self.key)
            let header = request.headerFields[SigningRequestSerializer.signatureField] ?? ""
            let verified = header == #"keyId="client-1",algorithm="hmac-sha256",signature="\#(expected)""#
            return jsonResponse(
                #"{"verified":\#(verified),"signature":"\#(expected)"}"#, status: verified ? .ok : .unauthorized)
        }
    }

    @Test func sha256AndHMACMatchPublishedVectors() {
        #expect(
            SHA256.hex(SHA256.hash(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // RFC 4231, test case 2.
        #expect(SHA256.hex(SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func clientSendsTheSignedRequestToTheTransport() async throws {
        let recorder = Recorder()
        let client = Client(
            baseURL: URL(string: "https://api.example.com/v1"), transport: verifyingTransport(recorder: recorder),
            registry: jsonRegistry, requestSerializer: signer)
        #expect(client.requestSerializer is SigningRequestSerializer)

        let result = try await client.post("users", parameters: ["name": "Ada"])
        #expect(result.value["verified"] == true)
        let sent = try #require(recorder.last)
        #expect(sent.request.path == "/v1/users")
        #expect(sent.request.headerFields[.date] == Self.date)
        #expect(sent.body == Array(#"{"name":"Ada"}"#.utf8))
        #expect(sent.request.headerFields[.contentType] == "application/json; charset=utf-8")
        // Computed independently: HMAC-SHA256("secret-key", "POST\n/v1/users\n<date>\n" + hex(SHA-256(body))).
        #expect(
            sent.request.headerFields[SigningRequestSerializer.signatureField]
                == #"keyId="client-1",algorithm="hmac-sha256","#
                + #"signature="22dbe35a2c86e1d428a05194436daaaa8148af535cdcfdedaaf99de8ecd6810c""#
        )
    }

    @Test func signatureCoversTheQueryOfBodilessRequests() async throws {
        let recorder = Recorder()
        let client = Client(
            baseURL: URL(string: "https://api.example.com/v1"), transport: verifyingTransport(recorder: recorder),
            registry: jsonRegistry, requestSerializer: signer)
        let result = try await client.get("search", parameters: ["q": "a b"])
        #expect(result.value["verified"] == true)
        let sent = try #require(recorder.last)
        #expect(sent.request.path == "/v1/search?q=a%20b")
        #expect(sent.body.isEmpty)
        let expected = SigningRequestSerializer.signature(method: "GET", path: "/v1/search?q=a%20b", date: Self.date,
                                                          body: [], key: Self.key)
        #expect(result.value["signature"] == .string(expected))
    }

    @Test func multipartUploadsAreSignedOverTheBytesSent() async throws {
        let recorder = Recorder()
        let client = Client(
            baseURL: URL(string: "https://api.example.com/v1"), transport: verifyingTransport(recorder: recorder),
            registry: jsonRegistry, requestSerializer: signer)
        var form = MultipartFormData()
        form.append(name: "title", value: "Beach")
        form.append(name: "photo", bytes: [0xFF, 0xD8, 0xFF, 0xE0], filename: "beach.jpg", contentType: "image/jpeg")
        let result = try await client.upload(
            "photos", multipart: form, responseSerializer: ValueResponseSerializer(registry: jsonRegistry))
        #expect(result.value["verified"] == true)
        let sent = try #require(recorder.last)
        #expect(sent.body == (try form.encodedBytes()))
    }

    @Test func encodableParametersGoThroughTheDefaultImplementationAndAreSigned() async throws {
        struct NewUser: Encodable { var name: String }
        let recorder = Recorder()
        let client = Client(
            baseURL: URL(string: "https://api.example.com/v1"), transport: verifyingTransport(recorder: recorder),
            registry: jsonRegistry, requestSerializer: signer)
        let result = try await client.send(.post, "users", encoding: NewUser(name: "Ada"),
                                           responseSerializer: ValueResponseSerializer(registry: jsonRegistry))
        #expect(result.value["verified"] == true)
        #expect(recorder.last?.body == Array(#"{"name":"Ada"}"#.utf8))
    }

    @Test func aSerializerPassedToOneCallIsUsedForThatCallOnly() async throws {
        let recorder = Recorder()
        let client = Client(
            baseURL: URL(string: "https://api.example.com/v1"), transport: verifyingTransport(recorder: recorder),
            registry: jsonRegistry)
        #expect(client.requestSerializer is ParameterRequestSerializer)

        let unsigned = try await client.send(.get, "items", responseSerializer: AcceptingEverySerializer())
        #expect(unsigned.response.status == .unauthorized)
        #expect(recorder.last?.request.headerFields[SigningRequestSerializer.signatureField] == nil)

        let signed = try await client.send(.get, "items", requestSerializer: signer,
                                           responseSerializer: ValueResponseSerializer(registry: jsonRegistry))
        #expect(signed.value["verified"] == true)
    }
}

/// Returns the status whatever it is, so a test can look at a 401.
struct AcceptingEverySerializer: ResponseSerializer {
    func serialize(_ response: HTTPResponse, body: [UInt8], request: HTTPRequest?) throws -> HTTPResponse.Status {
        response.status
    }
}
