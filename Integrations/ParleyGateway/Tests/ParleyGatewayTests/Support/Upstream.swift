import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Parley
import ParleyHTTP

/// The upstream of the tests: a Hummingbird router whose answers the tests know.
enum TestUpstream {
    /// The value `/value` serves, in whatever type `?type=` names. It fits every built-in
    /// value format, CSV included (a list of flat records).
    static let value: Value = .array([
        .object(["id": .integer(1), "name": .string("Ada"), "active": .bool(true)]),
        .object(["id": .integer(2), "name": .string("Grace"), "active": .bool(false)]),
    ])

    static let etag = "\"v1-abc\""

    static func router() -> Router<BasicRequestContext> {
        let router = Router()
        // The value in the type `?type=` names (default JSON), with a strong ETag, and the `Vary`
        // that `?vary=` names, if any.
        router.get("/value") { request, _ -> Response in
            let type = request.uri.queryParameters["type"].map(String.init) ?? "application/json"
            let reply = try ParleyServer(registry: Registry.linked).reply(with: value, accepting: type)
            var headers: HTTPFields = [.contentType: reply.contentType.description, .eTag: etag,
                                       .cacheControl: "max-age=60"]
            if let vary = request.uri.queryParameters["vary"] { headers[.vary] = String(vary) }
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body)))
        }
        // What arrived: method, path, fields, body, as JSON.
        router.on("/echo/**", method: .get, use: echo)
        router.on("/echo/**", method: .post, use: echo)
        router.on("/echo/**", method: .put, use: echo)
        // A problem (RFC 9457) with status 409.
        router.get("/conflict") { _, _ in
            Response(status: .conflict, headers: [.contentType: "application/problem+json"],
                     body: ResponseBody(byteBuffer: ByteBuffer(
                        string: #"{"type":"about:blank","title":"Conflict","status":409,"detail":"taken"}"#)))
        }
        // `n` bytes of a repeating pattern, streamed in 64 KiB chunks.
        router.get("/bytes/{count}") { _, context -> Response in
            let count = Int(context.parameters.get("count") ?? "0") ?? 0
            return Response(status: .ok,
                            headers: [.contentType: "application/octet-stream", .contentLength: String(count)],
                            body: ResponseBody { writer in
                                let chunk = ByteBuffer(bytes: (0..<65_536).map {
                                    UInt8(truncatingIfNeeded: $0 &* 31 &+ 7)
                                })
                                var left = count
                                while left > 0 {
                                    let size = min(left, chunk.readableBytes)
                                    try await writer.write(chunk.getSlice(at: 0, length: size)!)
                                    left -= size
                                }
                                try await writer.finish(nil)
                            })
        }
        // A JSON array of `n` small objects: a body whose size the test chooses.
        router.get("/large/{count}") { _, context -> Response in
            let count = Int(context.parameters.get("count") ?? "0") ?? 0
            var text = "["
            for index in 0..<count { text += (index == 0 ? "" : ",") + #"{"n":\#(index),"s":"item \#(index)"}"# }
            text += "]"
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        // Takes a body and says only that it did (nothing of the request comes back).
        router.post("/login") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 1 << 20)
            return Response(status: .created, headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"ok":true}"#)))
        }
        // No head for `seconds`.
        router.get("/stall/{seconds}") { _, context -> Response in
            let seconds = Double(context.parameters.get("seconds") ?? "0") ?? 0
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            return Response(status: .ok, headers: [.contentType: "text/plain"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: "late")))
        }
        // Hop-by-hop fields the gateway must drop, one named by Connection.
        router.get("/hop") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain", .connection: "X-Upstream-Secret",
                                            HTTPField.Name("X-Upstream-Secret")!: "s",
                                            HTTPField.Name("Keep-Alive")!: "timeout=5",
                                            HTTPField.Name("X-End-To-End")!: "kept"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: "hop")))
        }
        return router
    }

    @Sendable private static func echo(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024 * 1024)
        var fields: Value.Object = [:]
        for field in request.headers {
            let name = field.name.canonicalName
            fields[name] = .array((fields[name]?.arrayValue ?? []) + [.string(field.value)])
        }
        let echoed: Value = .object(["method": .string(request.method.rawValue),
                                     "path": .string(request.uri.description),
                                     "authority": .string(request.head.authority ?? ""), "fields": .object(fields),
                                     "body": .string(String(decoding: body.readableBytesView, as: UTF8.self))])
        let reply = try ParleyServer(registry: Registry.linked).reply(with: echoed, accepting: "application/json")
        return Response(status: .ok, headers: [.contentType: reply.contentType.description],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body)))
    }
}
