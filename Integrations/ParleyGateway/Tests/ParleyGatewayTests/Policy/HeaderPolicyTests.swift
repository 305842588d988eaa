import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Parley
@testable import ParleyGateway
import Testing

/// The request head policy (review finding 9): methods, Host, names, Connection, Forwarded.
@Suite(.timeLimit(.minutes(2))) struct HeaderPolicyTests {
    /// Sends `head` (request line and fields, without the blank line) on a new connection.
    static func send(_ head: String, port: Int,
                     waitingForClose: Bool = true) async throws -> (answer: RawResponse?, closed: Bool) {
        let connection = try await RawConnection.open(port: port)
        try await connection.send(head + "\r\n\r\n")
        let answer = await connection.responses(1, within: .seconds(10)).first
        let closed = waitingForClose ? await connection.waitForClose(within: .seconds(3)) : false
        await connection.close()
        return (answer, closed)
    }

    /// The fields the upstream's echo saw, by lower-cased name.
    struct EchoedFields {
        let value: Value
        subscript(name: String) -> [String]? { value["fields"]?[name]?.arrayValue?.compactMap(\.stringValue) }
    }

    static func echoedFields(_ answer: RawResponse?) throws -> EchoedFields {
        let answer = try #require(answer)
        let json = try MediaType(parsing: "application/json")
        return EchoedFields(value: try Registry.linked.decode(answer.body, contentType: json))
    }

    @Test func connectAndTraceAre405AndAMissingOrDuplicateHostIs400() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                for head in ["CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443",
                             "TRACE /echo/x HTTP/1.1\r\nHost: gateway"] {
                    let (answer, closed) = try await Self.send(head, port: gateway.main.port)
                    #expect(answer?.status == 405, "\(head)")
                    #expect(answer?.field("Allow")?.contains("GET") == true)
                    #expect(closed)
                }
                for head in ["GET /echo/x HTTP/1.1", "GET /echo/x HTTP/1.1\r\nHost: gateway\r\nHost: other"] {
                    let (answer, closed) = try await Self.send(head, port: gateway.main.port)
                    #expect(answer?.status == 400, "\(head)")
                    #expect(answer?.text.contains("Host") == true)
                    #expect(closed)
                }
            }
        }
    }

    @Test func underscoreNamesTEAndNamesConnectionListsDoNotGoUpstreamAndCloseIsHonouredInAList() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let (answer, closed) = try await Self.send("""
                    GET /echo/x HTTP/1.1\r\nHost: gateway\r\nAccept: application/json\r\nX_User: admin\r\nX-User: ada\r
                    TE: gzip, chunked\r\nConnection: keep-alive, X-Secret, close\r\nX-Secret: s
                    """, port: gateway.main.port)
                #expect(answer?.status == 200)
                let fields = try Self.echoedFields(answer)
                #expect(fields["x-user"] == ["ada"])
                #expect(fields["x_user"] == nil)
                #expect(fields["te"] == nil)
                #expect(fields["x-secret"] == nil)
                #expect(answer?.field("Connection") == "close")
                #expect(closed)
            }
        }
    }

    @Test func fieldValuesThatAreNotUTF8AreForwardedAsReceivedBothWays() async throws {
        // Latin-1 é (0xE9) and bytes that are no UTF-8 at all: obs-text, which RFC 9110 §5.5 allows.
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9, 0x20, 0xFF, 0xC3, 0x28]
        let scripts: [String: [ScriptStep]] = [
            "/echo-head": [.echoHead, .nextRequest],
            "/latin1": [.send(Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Name: ".utf8) + latin1
                              + Array("\r\nContent-Length: 2\r\n\r\nok".utf8)), .nextRequest],
        ]
        try await ScriptedUpstream.with(scripts) { upstream in
            try await withGateway(upstream: upstream.url) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send(Array("GET /echo-head HTTP/1.1\r\nHost: gateway\r\nX-Name: ".utf8) + latin1
                                          + Array("\r\n\r\nGET /latin1 HTTP/1.1\r\nHost: gateway\r\n\r\n".utf8))
                let answers = await connection.responses(2, within: .seconds(10))
                await connection.close()
                try #require(answers.count == 2)
                // The field's line, its name in any case, its value byte for byte.
                func hasLine(_ bytes: [UInt8]) -> Bool {
                    let lowered = bytes.map { (65...90).contains($0) ? $0 + 32 : $0 }
                    return lowered.firstRange(of: Array("\r\nx-name: ".utf8) + latin1 + Array("\r\n".utf8)) != nil
                }
                #expect(hasLine(answers[0].body),
                        "upstream got \(String(decoding: answers[0].body, as: UTF8.self).debugDescription)")
                #expect(hasLine(connection.received))
            }
        }
    }

    @Test func untrustedForwardingFieldsAreDroppedAndTheClientAddressIsAdded() async throws {
        let head = """
            GET /echo/x HTTP/1.1\r\nHost: gateway.example\r\nAccept: application/json\r\nX-Forwarded-For: 203.0.113.9\r
            Forwarded: for=203.0.113.9\r\nX-Real-IP: 203.0.113.9\r\nX-Forwarded-Host: evil
            """
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                // A client naming X-Forwarded-For in Connection cannot have the gateway drop its own.
                let sent = try await Self.send(head + "\r\nConnection: X-Forwarded-For", port: gateway.main.port,
                                               waitingForClose: false)
                let fields = try Self.echoedFields(sent.answer)
                #expect(fields["x-forwarded-for"] == ["127.0.0.1"])
                #expect(fields["forwarded"] == [#"for=127.0.0.1;host="gateway.example";proto=http"#])
                #expect(fields["x-real-ip"] == nil)
                #expect(fields["x-forwarded-host"] == ["gateway.example"])
                #expect(fields["x-forwarded-proto"] == ["http"])
            }
            let loopback = try AddressRange(parsing: "127.0.0.0/8")
            try await withGateway(upstream: upstream, configure: { $0.trustedProxies = [loopback] }) { gateway in
                let sent = try await Self.send(head, port: gateway.main.port, waitingForClose: false)
                let fields = try Self.echoedFields(sent.answer)
                #expect(fields["x-forwarded-for"] == ["203.0.113.9, 127.0.0.1"])
                #expect(fields["forwarded"] == ["for=203.0.113.9", #"for=127.0.0.1;host="gateway.example";proto=http"#])
                #expect(fields["x-real-ip"] == ["203.0.113.9"])
                #expect(fields["x-forwarded-host"] == ["evil"])
            }
        }
    }

    @Test func transcodeMetricLabelsNameRegisteredTypesOrOther() async throws {
        let router = Router()
        router.get("/typed/{n}") { _, context -> Response in
            let type = "application/vnd.invented\(context.parameters.get("n") ?? "")+json"
            return Response(status: .ok, headers: [.contentType: type],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"a":1}"#)))
        }
        try await withUpstream(router) { upstream in
            let admin = HostAndPort(host: "127.0.0.1", port: 0)
            try await withGateway(upstream: upstream, configure: { $0.admin = admin }) { gateway in
                for index in 0..<3 {
                    let answer = try await fetch("http://\(gateway.main)/typed/\(index)",
                                                 headers: [("Accept", "application/yaml")])
                    #expect(answer.status == 200)
                }
                let metrics = try await fetch("http://\(try #require(gateway.admin))/metrics").text
                #expect(metrics.contains(#"parley_gateway_transcodes_total{from="other",to="application/yaml"} 3"#),
                        "\(metrics)")
                #expect(!metrics.contains("invented"))
            }
        }
    }

    @Test(arguments: [
        ("10.0.0.0/8", "10.255.1.2", true), ("10.0.0.0/8", "11.0.0.1", false), ("127.0.0.1", "127.0.0.1", true),
        ("127.0.0.1", "127.0.0.2", false), ("192.168.1.128/25", "192.168.1.200", true),
        ("192.168.1.128/25", "192.168.1.5", false), ("::1", "::1", true), ("fd00::/8", "fd12::1", true),
        ("fd00::/8", "fe80::1", false), ("10.0.0.0/8", "::ffff:10.1.2.3", true),
        ("0.0.0.0/0", "8.8.8.8", true), ("10.0.0.0/8", "not an address", false),
    ])
    func addressRanges(range: String, address: String, contained: Bool) throws {
        #expect(try AddressRange(parsing: range).contains(address) == contained)
    }

    @Test func aConnectionsNextHeadNamingAnotherHostGetsAForwardedElementOfItsOwn() throws {
        let policy = RequestHeadPolicy()
        var last = RequestHeadPolicy.LastHead()
        func forwarded(_ host: String, from client: String) throws -> String? {
            let head = HTTPRequest(method: .get, scheme: nil, authority: host, path: "/x", headerFields: [:])
            var lines: ClientFieldLines? = ClientFieldLines()
            let admitted = try policy.admit(head, from: client, last: &last, lines: &lines)
            // Kept apart from the head's own fields, which the policy leaves as they came (with their lines).
            #expect(admitted.head.headerFields[RequestHeadPolicy.forwarded] == nil && lines != nil)
            return admitted.appended?.fields.first { $0.name == RequestHeadPolicy.forwarded }?.value
        }
        #expect(try forwarded("a.example", from: "192.0.2.1") == #"for=192.0.2.1;host="a.example";proto=http"#)
        #expect(try forwarded("a.example", from: "192.0.2.1") == #"for=192.0.2.1;host="a.example";proto=http"#)
        #expect(try forwarded("b.example", from: "192.0.2.1") == #"for=192.0.2.1;host="b.example";proto=http"#)
        #expect(try forwarded("b.example", from: "::1") == #"for="[::1]";host="b.example";proto=http"#)
    }

    @Test func connectionTokensAreReadAsAListWhateverTheirCaseAndSpaces() throws {
        let policy = RequestHeadPolicy()
        func admitted(_ connection: [String]) throws -> HTTPFields {
            var fields: HTTPFields = [HTTPField.Name("X-Secret")!: "s", HTTPField.Name("X-Kept")!: "k",
                                      .upgrade: "h2c", HTTPField.Name("Keep-Alive")!: "timeout=5"]
            for value in connection { fields.append(HTTPField(name: .connection, value: value)) }
            let head = HTTPRequest(method: .get, scheme: nil, authority: "gateway", path: "/x", headerFields: fields)
            return try policy.admit(head, from: nil).headerFields
        }
        let named = try admitted([" x-SECRET ,\tKeep-Alive", ""])
        #expect(named[HTTPField.Name("X-Secret")!] == nil && named[HTTPField.Name("Keep-Alive")!] == nil)
        #expect(named[HTTPField.Name("X-Kept")!] == "k" && named[.upgrade] == "h2c")
        #expect(named[.connection] == "keep-alive")
        let upgrading = try admitted(["Upgrade, HTTP2-Settings"])
        #expect(upgrading[.upgrade] == nil && upgrading[.connection] == "close")
        for empty in [[","], [" , \t"], ["", ","]] {
            let fields = try admitted(empty)
            #expect(fields[.connection] == nil, "\(empty)")
            #expect(fields[HTTPField.Name("X-Secret")!] == "s" && fields[.upgrade] == "h2c", "\(empty)")
        }
    }

    @Test func badAddressRangesAreConfigurationErrors() {
        for text in ["10.0.0.0/33", "::/129", "example.org", "10.0.0/8", ""] {
            #expect(throws: GatewayConfigurationError.self, "\(text)") { try AddressRange(parsing: text) }
        }
    }
}
