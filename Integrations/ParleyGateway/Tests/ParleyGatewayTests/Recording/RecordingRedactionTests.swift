import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Parley
import ParleyCompression
import ParleyFixtures
@testable import ParleyGateway
import Testing

/// Recording redaction fails closed and URLs are redacted everywhere (review finding 4).
@Suite(.timeLimit(.minutes(2))) struct RecordingRedactionTests {
    static let secret = "hunter2"

    /// An upstream that takes any body and answers with URLs carrying tokens in every field that holds one.
    static func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/take") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 8 << 20)
            return Response(status: .created, headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"ok":true}"#)))
        }
        router.get("/links") { _, _ -> Response in
            // 201, not a redirect: the test's client would follow one.
            Response(status: .created, headers: [.location: "http://up/next?access_token=tok3&page=2",
                                               HTTPField.Name("Link")!:
                                                   "<http://up/a?access_token%5B%5D=tok4>; rel=next",
                                               HTTPField.Name("Content-Location")!: "/c?Access_Token=tok5",
                                               .contentType: "text/plain"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: "moved")))
        }
        // A JSON answer over the capture cap holding the secret.
        router.get("/big") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "application/json"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: RecordingRedactionTests.bigJSON)))
        }
        return router
    }

    static let bigJSON = #"{"password":"\#(secret)","pad":"\#(String(repeating: "x", count: 1_100_000))"}"#

    @Test func bodiesThatCannotBeRedactedForCertainAreStoredAsPlaceholdersAndURLsNowhereKeepTokens() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-gateway-\(UUID())")
        let logFile = folder.path + ".log"
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(atPath: logFile)
        }
        let writer = try LogLineWriter(.file(logFile))
        let accessLogger = Logger(label: "access") { BufferedLogHandler(label: $0, writer: writer) }
        let secretJSON = Array(#"{"password":"\#(Self.secret)"}"#.utf8)
        // A gzip body of 2 MiB once decoded: past the 1 MiB capture cap.
        let padded = #"{"password":"\#(Self.secret)","pad":"\#(String(repeating: "y", count: 2 << 20))"}"#
        let inflating = Compressor().compress(Array(padded.utf8), coding: .gzip)
        let bodies: [(type: String, encoding: String?, body: [UInt8], reason: String)] = [
            ("application/json", nil, Array(Self.bigJSON.utf8), "over the capture cap"),
            ("application/json", "gzip", inflating, "does not undo within"),
            ("application/json; charset=iso-8859-1", nil, secretJSON, "charset iso-8859-1"),
            ("application/json", nil, Array(#"{"password":"\#(Self.secret)","#.utf8), "cannot decode it"),
            ("multipart/form-data; boundary=b", nil,
             Array("--b\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n\(Self.secret)\r\n--b--\r\n".utf8),
             "multipart"),
            ("application/x-www-form-urlencoded", nil, Array("password=\(Self.secret)".utf8), "form bodies"),
            ("application/x-parley-unknown", nil, secretJSON, "no format decodes and re-encodes"),
        ]
        try await withUpstream(Self.router()) { upstream in
            try await withGateway(upstream: upstream, accessLogger: accessLogger, configure: {
                $0.recording = .init(directory: folder, redactedPaths: ["password"])
            }) { gateway in
                for body in bodies {
                    var headers = [("Content-Type", body.type), ("Accept", "application/json")]
                    if let encoding = body.encoding { headers.append(("Content-Encoding", encoding)) }
                    let answer = try await fetch("http://\(gateway.main)/take?access_token%5B%5D=tok1", method: .POST,
                                                 headers: headers, body: body.body)
                    #expect(answer.status == 201, "\(body.type)")
                }
                _ = try await fetch("http://\(gateway.main)/links?access_token=tok2",
                                    headers: [("Referer", "http://app/?x=1&access_token=tok6")])
                _ = try await fetch("http://\(gateway.main)/big", headers: [("Accept", "application/json")])
                // Still redacted the usual way: a JSON body the format reads.
                _ = try await fetch("http://\(gateway.main)/take", method: .POST,
                                    headers: [("Content-Type", "application/json")], body: secretJSON)
            }
        }
        writer.close()
        let recorded = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .map { try String(contentsOfFile: folder.path + "/" + $0, encoding: .utf8) }.joined()
        let logged = try String(contentsOfFile: logFile, encoding: .utf8)
        for secret in [Self.secret, "tok1", "tok2", "tok3", "tok4", "tok5", "tok6"] {
            #expect(!recorded.contains(secret), "\(secret) was recorded")
            #expect(!logged.contains(secret), "\(secret) was logged")
        }
        for reason in bodies.map(\.reason) { #expect(recorded.contains(reason), "\(reason)") }
        // `access_token[]` sent percent-encoded, as URL libraries send it: the name still counts as access_token.
        #expect(recorded.contains("access_token%5B%5D=REDACTED"))
        #expect(recorded.contains(#""redirectURL":"http:\/\/up\/next?access_token=REDACTED&page=2""#)
                || recorded.contains(#""redirectURL":"http://up/next?access_token=REDACTED&page=2""#))
        #expect(recorded.contains("REDACTED"))
        #expect(logged.contains("access_token%5B%5D=REDACTED"))
    }

    @Test(arguments: [
        ("/a?access_token=t&b=1", "/a?access_token=REDACTED&b=1"),
        ("/a?b=1&access_token[]=t&access_token[]=u", "/a?b=1&access_token[]=REDACTED&access_token[]=REDACTED"),
        ("/a?ACCESS%5FTOKEN=t#f", "/a?ACCESS%5FTOKEN=REDACTED#f"),
        ("<http://x/?api_key=k>; rel=next, <http://x/?q=1>", "<http://x/?api_key=REDACTED>; rel=next, <http://x/?q=1>"),
        ("/a?my_access_token=t&access_token=", "/a?my_access_token=t&access_token="),
        ("/a?x=access_token=t", "/a?x=access_token=t"),
        ("no query at all", "no query at all"),
    ])
    func urlRedaction(text: String, expected: String) {
        #expect(URLRedaction(parameters: ["api_key"]).apply(to: text) == expected)
    }
}
