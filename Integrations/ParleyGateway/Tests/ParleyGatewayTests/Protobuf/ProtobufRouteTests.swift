import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import Parley
import ParleyGateway
import ParleyProtobuf
import Testing

/// A route with descriptor sets: a protobuf upstream answers JSON and YAML clients, and a JSON
/// request body reaches it as protobuf (#36).
@Suite(.timeLimit(.minutes(2))) struct ProtobufRouteTests {
    /// The descriptor set ParleyProtobuf's tests commit (`Tests/ParleyProtobufTests/Resources`).
    static let descriptorSet = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/ParleyProtobufTests/Resources/oracle_test.binpb")
    static let messageType = "parley.test.Scalars"
    /// In field-number order, as ProtoJSON writes members.
    static let value: Value = .object(["fInt32": .integer(7), "fInt64": .string("9007199254740993"),
                                       "fBool": .bool(true), "fString": .string("hello"),
                                       "fColor": .string("COLOR_GREEN")])
    static let protobufType = try! MediaType(parsing: "application/x-protobuf")

    static func format() throws -> ProtobufFormat {
        let set = try #require(FileManager.default.contents(atPath: descriptorSet.path))
        return try ProtobufFormat(descriptorSets: [Array(set)], options: .init(messageType: messageType))
    }

    /// A protobuf upstream: `/pb/scalars` answers ``value``; `/pb/echo` answers the body it got, as protobuf.
    static func router() throws -> Router<BasicRequestContext> {
        let body = try format().encode(value, context: EncodingContext(mediaType: protobufType))
        let router = Router()
        router.get("/pb/scalars") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/x-protobuf"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.post("/pb/echo") { request, _ -> Response in
            let received = try await request.body.collect(upTo: 1 << 20)
            let receivedType = request.headers[.contentType] ?? ""
            return Response(status: .ok, headers: [.contentType: "application/x-protobuf",
                                                   HTTPField.Name("X-Received-Type")!: receivedType],
                            body: ResponseBody(byteBuffer: received))
        }
        return router
    }

    @Test func aProtobufUpstreamAnswersJSONAndYAMLClientsAndTakesJSONBodies() async throws {
        let route = {
            var route = GatewayConfiguration.Route(pathPrefix: "/pb", requestTypes: [Self.protobufType])
            route.descriptorSets = [Self.descriptorSet]
            route.messageType = Self.messageType
            return route
        }()
        try await withUpstream(try Self.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { $0.routes = [route] }) { gateway in
                for type in ["application/json", "application/yaml"] {
                    let answer = try await fetch("http://\(gateway.main)/pb/scalars", headers: [("Accept", type)])
                    #expect(answer.status == 200, "\(answer.text)")
                    #expect(answer.header("Content-Type")?.hasPrefix(type) == true)
                    let decoded = try Registry.linked.decode(answer.body, contentType: MediaType(parsing: type))
                    #expect(decoded == Self.value, "\(answer.text)")
                }
                let json = Array(#"{"fString":"hello","fInt32":7,"fInt64":"9007199254740993","fBool":true,"#.utf8)
                    + Array(#""fColor":"COLOR_GREEN"}"#.utf8)
                let echoed = try await fetch("http://\(gateway.main)/pb/echo", method: .POST,
                                             headers: [("Content-Type", "application/json"),
                                                       ("Accept", "application/json")], body: json)
                #expect(echoed.status == 200, "\(echoed.text)")
                #expect(echoed.header("X-Received-Type") == "application/x-protobuf")
                let jsonType = try MediaType(parsing: "application/json")
                let decoded = try Registry.linked.decode(echoed.body, contentType: jsonType)
                #expect(decoded == Self.value, "\(echoed.text)")

                // Outside the route there is no schema: protobuf is neither asked for nor produced.
                let elsewhere = try await fetch("http://\(gateway.main)/pb-other",
                                                headers: [("Accept", "application/x-protobuf")])
                #expect(elsewhere.status == 404)
            }
        }
    }

    @Test func aRouteWhoseDescriptorSetsCannotBeUsedStopsTheGatewayFromStarting() async throws {
        var route = GatewayConfiguration.Route(pathPrefix: "/pb")
        route.descriptorSets = [Self.descriptorSet]
        route.messageType = "parley.test.NoSuchMessage"
        let configuration = GatewayConfiguration(listen: HostAndPort(host: "127.0.0.1", port: 0),
                                                 upstream: URL(string: "http://127.0.0.1:9")!, routes: [route])
        await #expect(throws: GatewayConfigurationError.self) {
            try await Gateway(configuration: configuration, registry: .linked).run()
        }
        #expect(throws: GatewayConfigurationError.self) {
            let yaml = "upstream: http://127.0.0.1:9\nroutes:\n  - prefix: /a\n    message_type: x.Y\n"
            return try GatewayConfiguration(yaml: Array(yaml.utf8))
        }
    }
}
