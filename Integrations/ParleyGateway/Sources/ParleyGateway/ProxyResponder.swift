import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Parley
import ParleyHTTP
import ParleyAsyncHTTPClient

/// Answers every request of the main port: forwards it upstream and streams, transcodes or
/// refuses the response (the rules are in ``Transcoder``). The main port reserves no paths.
struct ProxyResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let configuration: GatewayConfiguration
    let transcoder: Transcoder
    /// The transcoders of routes with a registry of their own (descriptor sets), by path prefix.
    let routeTranscoders: [String: Transcoder]
    let upstream: Upstream
    let observer: ExchangeObserver

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        var summary = ExchangeSummary(request: request.head, response: HTTPResponse(status: .ok), started: Date())
        let requestTap = BodyTap(limit: observer.captureLimit)
        let accept = AcceptField(request.head.headerFields)   // scanned once, carried to every decision
        let answer: Answer
        do {
            answer = try await proxy(request, accepting: accept, requestTap: requestTap, summary: &summary)
        } catch {
            answer = .buffered(problem(for: error, request: request.head, accepting: accept))
        }
        summary.requestBody = requestTap.captured
        summary.bytesIn = requestTap.count
        if summary.upstreamRequestBody.isEmpty { summary.upstreamRequestBody = requestTap.captured }
        switch answer.announcingClose(to: request.head) {
        case .buffered(let head, let body):
            summary.response = head
            summary.responseBody = Array(body.prefix(observer.captureLimit))
            summary.bytesOut = body.count
            summary.duration = ContinuousClock.now - started
            observer.finished(summary)
            return Response(status: head.status, headers: head.headerFields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        case .streamed(let head, let body):
            summary.response = head
            let finished = summary
            let observer = observer
            return Response(status: head.status, headers: head.headerFields, body: ResponseBody { writer in
                let tap = BodyTap(limit: observer.captureLimit)
                var complete = false
                defer {
                    var summary = finished
                    summary.responseBody = tap.captured
                    summary.bytesOut = tap.count
                    if summary.upstreamResponse != nil {   // passed through: what the upstream sent is what the client got
                        summary.upstreamResponseBody = tap.captured
                        summary.upstreamResponseByteCount = tap.count
                    }
                    summary.duration = ContinuousClock.now - started
                    summary.incomplete = !complete
                    observer.finished(summary)
                }
                for try await buffer in body {
                    tap.take(buffer.readableBytesView)
                    try await writer.write(buffer)
                }
                try await writer.finish(nil)
                complete = true
            })
        }
    }

    /// A response: whole, or a head with the upstream's body still to stream.
    enum Answer {
        case buffered(HTTPResponse, [UInt8])
        case streamed(HTTPResponse, AsyncHTTPClientTransport.StreamedResponse.Body)

        static func buffered(_ pair: (response: HTTPResponse, body: [UInt8])) -> Answer { .buffered(pair.response, pair.body) }

        /// This answer, saying `Connection: close` when the client's request did: the server
        /// closes the connection after it, and RFC 9112 §9.6 has the response say so.
        func announcingClose(to request: HTTPRequest) -> Answer {
            let closes = request.headerFields[values: .connection].contains { value in
                value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "close" }
            }
            guard closes else { return self }
            switch self {
            case .buffered(var head, let body):
                head.headerFields[.connection] = "close"
                return .buffered(head, body)
            case .streamed(var head, let body):
                head.headerFields[.connection] = "close"
                return .streamed(head, body)
            }
        }
    }

    // MARK: Forwarding

    private func proxy(_ request: Request, accepting accept: AcceptField, requestTap: BodyTap,
                       summary: inout ExchangeSummary) async throws -> Answer {
        let head = request.head
        let route = configuration.route(for: head.path ?? "/")
        let transcoder = route.flatMap { routeTranscoders[$0.pathPrefix] } ?? self.transcoder
        let limit = route?.maxTranscodeBytes ?? configuration.maxTranscodeBytes

        var fields = ForwardedFields.endToEnd(head.headerFields)
        fields[.contentLength] = nil
        fields[.accept] = transcoder.upstreamAccept(forClient: accept)
        var body: HTTPClientRequest.Body?
        if transcoder.needsRequestTranscoding(label: head.headerFields[.contentType], types: route?.requestTypes ?? []) {
            let bytes = try await collect(request.body, limit: limit, tap: requestTap) {
                ParleyError(.limitExceeded, "the request body is over the gateway's transcoding limit of \(limit) bytes")
            }
            let (type, transcoded) = try transcoder.transcodeRequestBody(bytes, of: head, to: route?.requestTypes ?? [])
            fields[.contentType] = type.description
            fields[.contentEncoding] = nil
            body = .bytes(transcoded)
            summary.upstreamRequestBody = Array(transcoded.prefix(observer.captureLimit))
            summary.upstreamRequestByteCount = transcoded.count
        } else if let length = head.headerFields[.contentLength].flatMap(Int64.init), length >= 0 {
            body = length == 0 ? nil : .stream(tapped(request.body, requestTap), length: .known(length))
        } else if head.headerFields[.transferEncoding] != nil {
            body = .stream(tapped(request.body, requestTap), length: .unknown)
        }

        let upstreamRequest = try upstreamRequest(route: route, head: head, fields: fields)
        summary.upstreamRequest = upstreamRequest
        let sent = ContinuousClock.now
        let response = try await upstream.send(upstreamRequest, body: body, timeout: route?.upstreamTimeout ?? configuration.upstreamTimeout)
        summary.upstreamLatency = ContinuousClock.now - sent
        var upstreamHead = response.head
        upstreamHead.headerFields = ForwardedFields.endToEnd(upstreamHead.headerFields)

        switch transcoder.plan(for: upstreamHead, method: head.method, accept: accept) {
        case .passThrough:
            summary.upstreamResponse = response.head
            return .streamed(upstreamHead, response.body)
        case .notAcceptable(let upstreamType, let producible):
            var error = ParleyError.notAcceptable(accept.fieldValue, available: producible)
            error.message = "the upstream answered \(upstreamType.essence), which the gateway cannot turn into anything '\(accept.fieldValue ?? "")' accepts"
            return .buffered(transcoder.server.problemAnswer(for: error, to: head, accepting: accept))
        case .transcode(let from, let to):
            let bytes = try await collect(response.body, limit: limit, tap: nil) {
                UpstreamFailure.unusableBody("the upstream's \(from.essence) body is over the gateway's transcoding limit of \(limit) bytes (max_transcode_bytes)")
            }
            summary.upstreamResponse = response.head
            summary.upstreamResponseBody = Array(bytes.prefix(observer.captureLimit))
            summary.upstreamResponseByteCount = bytes.count
            do {
                let (transcodedHead, transcoded) = try transcoder.transcode(
                    upstreamHead, body: bytes, for: head, as: to, accepting: accept, limit: limit)
                summary.transcoded = (from.essence, to.mediaType.essence)
                return .buffered(transcodedHead, transcoded)
            } catch where upstreamHead.status.kind != .successful && error.code != .limitExceeded {
                return .buffered(upstreamHead, bytes)   // an error answer the formats cannot read: as it came
            } catch where error.code == .encodingFailed || error.code == .notAcceptable {
                // The value does not fit the type the client prefers (an XML document as CSV rows),
                // nor any other type the client accepts.
                var refusal = ParleyError.notAcceptable(accept.fieldValue, available: transcoder.producible(from: from))
                refusal.message = "the upstream's \(from.essence) value cannot be written as \(to.mediaType.essence): \(error.message)"
                throw refusal
            } catch {
                throw UpstreamFailure.unusableBody("the upstream's \(from.essence) body cannot be transcoded: \(error.message)")
            }
        }
    }

    /// The request for the upstream: the route's (or the gateway's) upstream, its path followed
    /// by the client's path and query, with `fields`.
    private func upstreamRequest(route: GatewayConfiguration.Route?, head: HTTPRequest,
                                 fields: HTTPFields) throws(UpstreamFailure) -> HTTPRequest {
        let base = route?.upstream ?? configuration.upstream
        guard let scheme = base.scheme, let host = base.host else { throw .unreachable("'\(base)' has no host") }
        var prefix = base.path
        while prefix.hasSuffix("/") { prefix.removeLast() }
        let path = head.path ?? "/"
        let authority = base.port.map { "\(host.contains(":") ? "[\(host)]" : host):\($0)" } ?? host
        return HTTPRequest(method: head.method, scheme: scheme, authority: authority,
                           path: prefix + (path.hasPrefix("/") ? path : "/" + path), headerFields: fields)
    }

    private func tapped(_ body: RequestBody, _ tap: BodyTap) -> some AsyncSequence<ByteBuffer, any Error> & Sendable {
        body.map { buffer in
            tap.take(buffer.readableBytesView)
            return buffer
        }
    }

    /// Reads a whole body, failing with `overLimit()` as soon as it passes `limit` bytes.
    private func collect<Body: AsyncSequence>(_ body: Body, limit: Int, tap: BodyTap?,
                                              overLimit: () -> any Error) async throws -> [UInt8] where Body.Element == ByteBuffer {
        var bytes: [UInt8] = []
        for try await buffer in body {
            tap?.take(buffer.readableBytesView)
            guard bytes.count + buffer.readableBytes <= limit else { throw overLimit() }
            bytes.append(contentsOf: buffer.readableBytesView)
        }
        return bytes
    }

    // MARK: Failures

    /// The problem answer (RFC 9457) for a failure: 504 for an upstream that did not answer in
    /// time, 502 for one that could not be reached or sent what the gateway could not use, and the
    /// status a ``ParleyError`` implies for the client's own mistakes.
    private func problem(for error: any Error, request: HTTPRequest,
                         accepting accept: AcceptField) -> (response: HTTPResponse, body: [UInt8]) {
        let server = transcoder.server
        switch error {
        case UpstreamFailure.timedOut(let timeout):
            return server.problemAnswer(ProblemDetails(.gatewayTimeout, detail: "the upstream sent no response head within \(timeout)"),
                                        status: .gatewayTimeout, to: request, accepting: accept)
        case UpstreamFailure.unreachable(let reason):
            return server.problemAnswer(ProblemDetails(.badGateway, detail: "the upstream could not be reached: \(reason)"),
                                        status: .badGateway, to: request, accepting: accept)
        case UpstreamFailure.unusableBody(let reason):
            return server.problemAnswer(ProblemDetails(.badGateway, detail: reason), status: .badGateway, to: request,
                                        accepting: accept)
        case let error as ParleyError:
            return server.problemAnswer(for: error, to: request, accepting: accept)
        case let failure as AsyncHTTPClientTransport.Failure where (failure.underlying as? HTTPClientError) == .readTimeout:
            return server.problemAnswer(ProblemDetails(.gatewayTimeout, detail: "the upstream's body stalled for longer than the upstream timeout"),
                                        status: .gatewayTimeout, to: request, accepting: accept)
        case let failure as AsyncHTTPClientTransport.Failure:
            return server.problemAnswer(ProblemDetails(.badGateway, detail: "the upstream exchange failed: \(failure.message)"),
                                        status: .badGateway, to: request, accepting: accept)
        default:
            return server.problemAnswer(ProblemDetails(.badGateway, detail: "the upstream exchange failed: \(error)"),
                                        status: .badGateway, to: request, accepting: accept)
        }
    }
}
