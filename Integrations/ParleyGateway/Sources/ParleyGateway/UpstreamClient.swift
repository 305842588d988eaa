import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import ParleyAsyncHTTPClient
import ParleyFixtures

/// A response head from the upstream, with its body still arriving.
struct UpstreamResponse: Sendable {
    var head: HTTPResponse
    var body: AsyncHTTPClientTransport.StreamedResponse.Body
}

/// Why the upstream gave no usable answer.
enum UpstreamFailure: Error, Sendable {
    /// No head within the timeout (the gateway answers 504).
    case timedOut(Duration)
    /// Refused, reset, unresolvable, or a malformed head (the gateway answers 502).
    case unreachable(String)
    /// A response body the gateway had to read and could not use: over the transcoding limit,
    /// cut short, or not what its `Content-Type` says (502).
    case unusableBody(String)
}

/// Where requests go: a live upstream through ``AsyncHTTPClientTransport`` (ParleyClient's
/// AsyncHTTPClient transport), or recordings answered offline by `ReplayTransport`
/// (`parley-gateway --replay DIR`).
enum Upstream: Sendable {
    case live(HTTPClient)
    case replay(ReplayTransport)

    /// Sends `request` with `body`; `timeout` covers the wait for the response head only, so a
    /// long body streams for as long as it takes.
    func send(_ request: HTTPRequest, body: HTTPClientRequest.Body?, timeout: Duration) async throws(UpstreamFailure) -> UpstreamResponse {
        switch self {
        case .live(let client):
            let transport = AsyncHTTPClientTransport(client: client, responseHeadTimeout: timeout)
            do {
                let streamed = try await transport.stream(request, body: body)
                return UpstreamResponse(head: streamed.response, body: streamed.body)
            } catch let failure as AsyncHTTPClientTransport.Failure where failure.code == .timedOut {
                throw .timedOut(timeout)
            } catch {
                throw .unreachable(String(describing: error))
            }
        case .replay(let transport):
            do {
                let (response, body) = try await transport.send(request, body: nil)
                return UpstreamResponse(head: response, body: .init(.bytes(ByteBuffer(bytes: body))))
            } catch {
                throw .unreachable("no recording answers it: \(error)")
            }
        }
    }
}
