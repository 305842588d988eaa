import BenchmarkInputs
public import Foundation
import HTTPTypes
import Parley
import ParleyCBOR
import ParleyCompression
import ParleyCSV
import ParleyHTTP
import ParleyJSON
import ParleyMessagePack
import ParleyPropertyList
import ParleyProtobuf
import ParleyXML
import ParleyYAML

/// One path a caller runs, as the instruction gate counts it: `iterations` runs of the same
/// call on the same input, so fixed costs do not drown a short path.
public struct GatedPath: Sendable {
    /// The benchmark's name, as the suites print it.
    public let name: String
    /// Runs of the path in one measured call; the gate reports instructions per run.
    public let iterations: Int
    /// Builds the input (from the folder ``prepareCommandLineInputs(in:)`` filled, for the
    /// command-line paths) and returns the measured call.
    public let prepare: @Sendable (_ inputs: URL) -> @Sendable () throws -> Void

    public init(_ name: String, iterations: Int = 1,
                prepare: @escaping @Sendable (_ inputs: URL) -> @Sendable () throws -> Void) {
        self.name = name
        self.iterations = iterations
        self.prepare = prepare
    }
}

/// Keeps `value` alive and opaque to the optimizer, so a measured call is never removed.
@inline(never)
public func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// The paths the gate counts: negotiation, JSON, CBOR, XML, YAML, property lists, Protocol Buffers, JSON
/// Schema, OpenAPI contract checking and the command line.
public let gatedPaths: [GatedPath] = negotiationPaths + formatPaths + schemaPaths + openAPIPaths + commandLinePaths

let negotiationPaths: [GatedPath] = {
    let negotiator = AcceptNegotiator(offers: apiOffers)
    let chrome = clientAcceptHeaders[0].accept
    var paths = clientAcceptHeaders.map { client, accept in
        GatedPath("Accept.negotiate-\(client)-6offers", iterations: 1000) { _ in
            { for _ in 0..<1000 { consume(negotiator.preferredOfferIndex(forAccept: accept)) } }
        }
    }
    paths += [
        GatedPath("Accept.negotiate-1000elements-6offers", iterations: 10) { _ in
            { for _ in 0..<10 { consume(negotiator.preferredOfferIndex(forAccept: thousandElementAccept)) } }
        },
        // A gateway-like answer: one Accept against the type offers, then the fallback's and the
        // problem's; read as text three times, or scanned once into an AcceptField.
        GatedPath("Accept.negotiate-chrome-3offerlists-text", iterations: 1000) { _ in
            let lists = gatewayOfferLists.map { AcceptNegotiator(offers: $0) }
            return { for _ in 0..<1000 { for list in lists { consume(list.preferredOfferIndex(forAccept: chrome)) } } }
        },
        GatedPath("Accept.negotiate-chrome-3offerlists-field", iterations: 1000) { _ in
            let lists = gatewayOfferLists.map { AcceptNegotiator(offers: $0) }
            return {
                for _ in 0..<1000 {
                    let accept = AcceptField(chrome)
                    for list in lists { consume(list.preferredOfferIndex(for: accept)) }
                }
            }
        },
        GatedPath("MediaType.parse-vnd-api-json-charset", iterations: 1000) { _ in
            { for _ in 0..<1000 { consume(try? MediaType(parsing: "application/vnd.api+json; charset=utf-8")) } }
        },
        GatedPath("Registry.decoder-suffix-match", iterations: 1000) { _ in
            { for _ in 0..<1000 { consume(applicationRegistry.decoder(for: problemJSON)?.rank) } }
        },
        GatedPath("Registry.decoder-content-type-string", iterations: 1000) { _ in
            {
                for _ in 0..<1000 {
                    consume(applicationRegistry.decoder(forContentType: "application/json; charset=utf-8")?.rank)
                }
            }
        },
        GatedPath("Registry.encoder-chrome", iterations: 1000) { _ in
            { for _ in 0..<1000 { consume(applicationRegistry.encoder(forAccept: chrome)?.mediaType) } }
        },
        GatedPath("AcceptEncoding.negotiate-chrome-4codings", iterations: 1000) { _ in
            let negotiator = EncodingNegotiator(codings: serverCodings)
            return { for _ in 0..<1000 { consume(negotiator.choice(forAcceptEncoding: chromeAcceptEncoding)) } }
        },
        GatedPath("AcceptLanguage.negotiate-en-GB-4languages", iterations: 1000) { _ in
            let negotiator = LanguageNegotiator(languages: siteLanguages)
            return {
                for _ in 0..<1000 {
                    consume(negotiator.preferredLanguageIndex(forAcceptLanguage: britishAcceptLanguage))
                }
            }
        },
    ]
    return paths
}()

let formatPaths: [GatedPath] = [
    GatedPath("JSON.decodeAndWalk-api-1mb") { _ in
        let document = makeAPIDocument(size: 1 << 20, seed: 1)
        return { consume(walk(try JSONFormat().decode(document))) }
    },
    GatedPath("JSON.codable-api-1mb") { _ in
        let document = makeAPIDocument(size: 1 << 20, seed: 1)
        return { consume(try JSONFormat().decode([APIRecord].self, from: document)) }
    },
    GatedPath("CBOR.decode-api-1mb") { _ in
        let bytes = cborAPIDocument()
        return { consume(try CBORFormat().decode(bytes)) }
    },
    GatedPath("CBOR.encode-api-1mb") { _ in
        let value = (try? CBORFormat().decode(cborAPIDocument())) ?? .null
        return { consume(try CBORFormat().encode(value)) }
    },
    GatedPath("MessagePack.decode-api-1mb") { _ in
        let bytes = try! MessagePackFormat().encode(try! JSONFormat().decode(makeAPIDocument(size: 1 << 20, seed: 1)))
        return { consume(try MessagePackFormat().decode(bytes)) }
    },
    // A small body, as a server or gateway decodes per request: a reader's fixed costs show here.
    GatedPath("MessagePack.decode-api-1kb", iterations: 1_000) { _ in
        let bytes = try! MessagePackFormat().encode(try! JSONFormat().decode(makeAPIDocument(size: 1 << 10, seed: 1)))
        return { for _ in 0..<1_000 { consume(try MessagePackFormat().decode(bytes)) } }
    },
    GatedPath("CBOR.decode-api-1kb", iterations: 1_000) { _ in
        let bytes = try! CBORFormat().encode(try! JSONFormat().decode(makeAPIDocument(size: 1 << 10, seed: 1)))
        return { for _ in 0..<1_000 { consume(try CBORFormat().decode(bytes)) } }
    },
    GatedPath("XML.events-1MB") { _ in
        let document = catalogue(bytes: 1 << 20)
        return { consume(try countStringEvents(document)) }
    },
    GatedPath("XML.decodeValue-1MB") { _ in
        let document = catalogue(bytes: 1 << 20)
        return { consume(try XMLFormat().decode(document)) }
    },
    // The writer alone, on the tree the reader gives for the same catalogue.
    GatedPath("XML.encode-1MB") { _ in
        let value = try! XMLFormat().decode(catalogue(bytes: 1 << 20))
        return { consume(try XMLFormat().encode(value)) }
    },
    GatedPath("YAML.decode-records-1MB") { _ in
        let document = makeYAMLRecords(targetBytes: 1 << 20)
        return { consume(try YAMLFormat().decode(document)) }
    },
    // The gateway's JSON-to-YAML transcode of a 1 KB body (#33): the writer alone, on the decoded tree.
    GatedPath("YAML.encode-orders-1KB", iterations: 1_000) { _ in
        let value = (try? JSONFormat().decode(Array(openAPIOrdersBody.utf8))) ?? .null
        return { for _ in 0..<1_000 { consume(try YAMLFormat().encode(value)) } }
    },
    // The gateway's transcodes of a 100 KB JSON API body (#33), as its response pipeline runs
    // them: decode, then encode the decoded value.
    GatedPath("Transcode.json-to-msgpack-api-100kb", iterations: 10) { _ in
        let document = makeAPIDocument(size: 100 << 10, seed: 1)
        return { for _ in 0..<10 { consume(try MessagePackFormat().encode(try JSONFormat().decode(document))) } }
    },
    GatedPath("Transcode.json-to-yaml-api-100kb", iterations: 10) { _ in
        let document = makeAPIDocument(size: 100 << 10, seed: 1)
        return { for _ in 0..<10 { consume(try YAMLFormat().encode(try JSONFormat().decode(document))) } }
    },
    // The same transcodes of the body `make gateway-bench` serves (one object of small records, few
    // escapes), so the gate predicts its 100 KB rows.
    GatedPath("Transcode.json-to-msgpack-gateway-100kb", iterations: 10) { _ in
        let document = makeGatewayBenchBody(size: 100 << 10)
        return { for _ in 0..<10 { consume(try MessagePackFormat().encode(try JSONFormat().decode(document))) } }
    },
    GatedPath("Transcode.json-to-yaml-gateway-100kb", iterations: 10) { _ in
        let document = makeGatewayBenchBody(size: 100 << 10)
        return { for _ in 0..<10 { consume(try YAMLFormat().encode(try JSONFormat().decode(document))) } }
    },
    // The gateway's transcodes of a 1 KB body (#33) as it runs them, the fixed costs around the
    // parse included: its response pipeline (content coding, status, `Content-Type` parsed and
    // matched, mislabel sniffing, decode) over every linked format, then the encode.
    GatedPath("Transcode.json-to-msgpack-pipeline-1kb", iterations: 1_000) { _ in
        pipelineTranscode(of: makeGatewayBenchBody(size: 1 << 10), to: "application/msgpack", with: MessagePackFormat())
    },
    GatedPath("Transcode.json-to-yaml-pipeline-1kb", iterations: 1_000) { _ in
        pipelineTranscode(of: makeGatewayBenchBody(size: 1 << 10), to: "application/yaml", with: YAMLFormat())
    },
    GatedPath("PropertyList.decode-xml-2000records") { _ in
        let document = try! PropertyListFormat().encode(makePropertyListRecords(2_000), as: "application/x-plist")
        return { consume(try PropertyListFormat().decode(document)) }
    },
    GatedPath("PropertyList.encode-xml-2000records") { _ in
        let records = makePropertyListRecords(2_000)
        return { consume(try PropertyListFormat().encode(records, as: "application/x-plist")) }
    },
    GatedPath("Protobuf.decode-stream-1mb") { _ in
        let format = try! protobufTestFormat()
        let bytes = try! protobufStream(format)
        return { consume(try format.decode(bytes, as: protobufStreamType)) }
    },
    GatedPath("Protobuf.decodeToJSON-stream-1mb") { _ in
        let format = try! protobufTestFormat()
        let bytes = try! protobufStream(format)
        return { consume(try JSONFormat().encode(try format.decode(bytes, as: protobufStreamType))) }
    },
]

/// A thousand transcodes of the JSON `body` to `type` by `format`, as the gateway makes them: the
/// response pipeline over ``transcodingRegistry`` with the gateway's options, then the encode.
func pipelineTranscode(of body: [UInt8], to type: MediaType, with format: some Format) -> @Sendable () throws -> Void {
    let pipeline = ResponsePipeline(registry: transcodingRegistry,
                                    validator: ResponseValidator(acceptableStatusCodes: Set(100..<600)),
                                    contentCodings: .standard, maxDecompressedBytes: 64 << 10)
    let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json",
                                                             .contentLength: String(body.count)])
    let request = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/orders",
                              headerFields: [.accept: type.description])
    let context = EncodingContext(mediaType: type)
    return {
        for _ in 0..<1_000 {
            let value = try pipeline.run(response, body: body, request: request).get()
            consume(try format.encode(value, context: context))
        }
    }
}

/// The formats `parley-gateway` links, in the order its `Registry.linked` lists them.
let transcodingRegistry = Registry(formats: [JSONFormat(), XMLFormat(), YAMLFormat(), PropertyListFormat(),
                                            MessagePackFormat(), ProtobufFormat(), CBORFormat(), CSVFormat()]
                                       + Registry.builtInFormats)

/// The values of the 1 MB API document as CBOR (what the CBOR paths decode; encoding starts from
/// their decoded value, fully built).
func cborAPIDocument() -> [UInt8] {
    let value = (try? JSONFormat().decode(makeAPIDocument(size: 1 << 20, seed: 1))) ?? .null
    return (try? CBORFormat().encode(value)) ?? []
}
