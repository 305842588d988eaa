import Foundation
import NIOCore
import Parley
import ParleyHTTP
import ParleyVapor
import Testing
import Vapor

/// Vapor's `ContentConfiguration` with a Parley registry installed: coders for every format.
@Suite struct ContentConfigurationTests {
    /// The formats with numbers and Booleans: any Codable round-trips.
    static let typedFormats: [HTTPMediaType] = [
        .json, HTTPMediaType(type: "application", subType: "yaml"),
        HTTPMediaType(type: "application", subType: "x-plist"), HTTPMediaType(type: "application", subType: "msgpack"),
    ]
    static let xml = HTTPMediaType.xml
    /// CSV records are objects when the type says the first line is a header (RFC 7111).
    static let csv = HTTPMediaType(type: "text", subType: "csv", parameters: ["header": "present"])

    @Test(arguments: typedFormats)
    func roundTripsACodableThroughTheConfiguredCoders(type: HTTPMediaType) throws {
        let configuration = ContentConfiguration.parley(testRegistry)
        var body = ByteBuffer()
        var headers = HTTPHeaders()
        try configuration.requireEncoder(for: type).encode(ada, to: &body, headers: &headers)
        #expect(headers.contentType == type)
        #expect(body.readableBytes > 0)
        #expect(try configuration.requireDecoder(for: type).decode(User.self, from: body, headers: headers) == ada)
    }

    @Test func roundTripsStringsThroughXML() throws {
        let configuration = ContentConfiguration.parley(testRegistry)
        var body = ByteBuffer()
        var headers = HTTPHeaders()
        try configuration.requireEncoder(for: Self.xml).encode(note, to: &body, headers: &headers)
        #expect(headers.first(name: .contentType) == "application/xml; charset=utf-8")
        #expect(try configuration.requireDecoder(for: Self.xml).decode(Note.self, from: body, headers: headers) == note)
    }

    @Test func anIntegerFieldFromXMLIsADecodingFailureOf400() throws {
        let configuration = ContentConfiguration.parley(testRegistry)
        var headers = HTTPHeaders()
        headers.contentType = .xml
        let error = #expect(throws: ParleyError.self) {
            try configuration.requireDecoder(for: .xml)
                .decode(Row.self, from: ByteBuffer(string: "<row><id>7</id><name>Ada</name></row>"), headers: headers)
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.status == .badRequest)
    }

    @Test func roundTripsRecordsThroughCSV() throws {
        let configuration = ContentConfiguration.parley(testRegistry)
        let lines = [Line(id: "1", name: "Ada"), Line(id: "2", name: "Grace, Hopper")]
        var body = ByteBuffer()
        var headers = HTTPHeaders()
        try configuration.requireEncoder(for: Self.csv).encode(lines, to: &body, headers: &headers)
        #expect(String(buffer: body) == "id,name\r\n1,Ada\r\n2,\"Grace, Hopper\"\r\n")
        headers.contentType = Self.csv
        let decoder = try configuration.requireDecoder(for: Self.csv)
        #expect(try decoder.decode([Line].self, from: body, headers: headers) == lines)
    }

    @Test func installsEveryConcreteTypeTheRegistryHandlesAndLeavesVaporsOwn() throws {
        let configuration = ContentConfiguration.parley(testRegistry)
        for type in testRegistry.decodableMediaTypes where !type.isRange {
            let coder = try configuration.requireDecoder(for: HTTPMediaType(type: type.type, subType: type.subtype))
            let vaporOwns = ContentConfiguration.vaporOwnedMediaTypes.contains(type.essence)
            #expect((coder is ParleyContentCoder) != vaporOwns, "\(type)")
        }
        for type in testRegistry.encodableMediaTypes {
            let coder = try configuration.requireEncoder(for: HTTPMediaType(type: type.type, subType: type.subtype))
            let vaporOwns = ContentConfiguration.vaporOwnedMediaTypes.contains(type.essence)
            #expect((coder is ParleyContentCoder) != vaporOwns, "\(type)")
        }
        #expect(try configuration.requireDecoder(for: .formData) is FormDataDecoder)
    }

    @Test func aBodyThatDoesNotFitIsAParleyErrorOf400() throws {
        let configuration = ContentConfiguration.parley(testRegistry)
        var headers = HTTPHeaders()
        headers.contentType = .json
        let error = #expect(throws: ParleyError.self) {
            try configuration.requireDecoder(for: .json)
                .decode(User.self, from: ByteBuffer(string: #"{"id":"seven"}"#), headers: headers)
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.status == .badRequest)
    }

    /// `req.content.decode(T.self)` and `response.content.encode(_:as:)` on a live server.
    @Test(arguments: typedFormats + [xml, csv])
    func vaporsContentPathDecodesAndAnswersEveryFormatLive(type: HTTPMediaType) async throws {
        let essence = "\(type.type)/\(type.subType)"
        let (path, value): (String, any Encodable & Sendable) = switch essence {
        case "text/csv": ("/lines", [Line(id: "1", name: "Ada")])
        case "application/xml": ("/note", note)
        default: ("/content?as=\(essence)", ada)
        }
        try await withLiveServer { client in
            let sent = try ParleyServer(registry: testRegistry).reply(encoding: value, accepting: essence)
            let response = try await client.send(.POST, path, headers: [("Content-Type", type.serialize())],
                                                 body: sent.body)
            #expect(response.status == 200, "\(response.text)")
            #expect(response.contentType.flatMap { MediaType($0) }?.essence == essence)
            #expect(response.body == sent.body)
        }
    }

    @Test func aReturnedContentIsWrittenByParleysJSON() async throws {
        try await withLiveServer { client in
            let response = try await client.send(.GET, "/content")
            #expect(response.contentType == "application/json; charset=utf-8")
            #expect(try JSONDecoder().decode(User.self, from: Data(response.body)) == ada)
        }
    }
}
