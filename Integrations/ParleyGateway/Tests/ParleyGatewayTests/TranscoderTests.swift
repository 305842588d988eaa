import HTTPTypes
import Parley
@testable import ParleyGateway
import Testing

/// The head of a transcoded answer, made from the upstream's by ``Transcoder``.
@Suite struct TranscoderTests {
    static let request = HTTPRequest(method: .get, scheme: "http", authority: "a", path: "/value")

    static func fields(_ pairs: [(String, String)]) -> HTTPFields {
        HTTPFields(pairs.map { HTTPField(name: HTTPField.Name($0.0)!, value: $0.1) })
    }

    /// The upstream's status (its reason phrase too) and other fields stay, in their order; the
    /// fields the new body no longer matches go; the type, length and `Vary` follow, and a strong
    /// `ETag` turns weak.
    @Test func aTranscodedHeadKeepsTheUpstreamsOtherFieldsAndReplacesWhatTheBodyNoLongerMatches() throws {
        let transcoder = Transcoder(registry: .linked, transcodeLimits: [1 << 20])
        let upstream = HTTPResponse(status: .init(code: 200, reasonPhrase: "Fine"), headerFields: Self.fields([
            ("Server", "upstream"), ("Content-Type", "application/json"), ("Content-Length", "7"),
            ("ETag", "\"v1\""), ("Accept-Ranges", "bytes"), ("Content-MD5", "x"), ("Digest", "sha-256=x"),
            ("Content-Digest", "sha-256=:x:"), ("Repr-Digest", "sha-256=:x:"), ("Vary", "Accept-Encoding"),
            ("Cache-Control", "max-age=60"), ("Content-Range", "bytes 0-6/7"), ("Content-Language", "en"),
        ]))
        let accept = AcceptField("application/msgpack")
        let plan = transcoder.transcodePlan(from: try MediaType(parsing: "application/json"),
                                            to: try #require(transcoder.registry.encoder(for: accept)))
        let (head, body) = try transcoder.transcode(upstream, body: Array(#"{"a":1}"#.utf8), for: Self.request,
                                                    as: plan, accepting: accept, limit: 1 << 20)
        #expect(body == [0x81, 0xA1, 0x61, 0x01])
        #expect(head.status.code == 200)
        #expect(head.status.reasonPhrase == "Fine")
        #expect(head.headerFields == Self.fields([
            ("Server", "upstream"), ("ETag", "W/\"v1\""), ("Cache-Control", "max-age=60"), ("Content-Language", "en"),
            ("Content-Type", "application/msgpack"), ("Content-Length", "4"), ("Vary", "Accept-Encoding, Accept"),
        ]))
    }

    /// An upstream without `Vary` gets `Vary: Accept`; a weak `ETag` stays as it came.
    @Test func withoutVaryTheAnswerVariesOnAcceptAlone() throws {
        let transcoder = Transcoder(registry: .linked, transcodeLimits: [1 << 20])
        let upstream = HTTPResponse(status: .ok, headerFields: Self.fields([
            ("Content-Type", "application/json"), ("ETag", "W/\"v2\""),
        ]))
        let accept = AcceptField("application/yaml")
        let plan = transcoder.transcodePlan(from: try MediaType(parsing: "application/json"),
                                            to: try #require(transcoder.registry.encoder(for: accept)))
        let (head, body) = try transcoder.transcode(upstream, body: Array(#"{"a":1}"#.utf8), for: Self.request,
                                                    as: plan, accepting: accept, limit: 1 << 20)
        #expect(body == Array("a: 1\n".utf8))
        #expect(head.headerFields == Self.fields([
            ("ETag", "W/\"v2\""), ("Content-Type", "application/yaml; charset=utf-8"), ("Content-Length", "5"),
            ("Vary", "Accept"),
        ]))
    }
}
