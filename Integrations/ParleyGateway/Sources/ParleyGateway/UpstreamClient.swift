import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import ParleyFixtures

/// A response head from the upstream, with its body still arriving.
struct UpstreamResponse: Sendable {
    var head: HTTPResponse
    var body: HTTPClientResponse.Body
}

/// Why the upstream gave no response head.
enum UpstreamFailure: Error, Sendable {
    /// No head within the timeout (the gateway answers 504).
    case timedOut(Duration)
    /// Refused, reset, unresolvable, or a malformed head (the gateway answers 502).
    case unreachable(String)
    /// A response body the gateway had to read and could not use: over the transcoding limit,
    /// cut short, or not what its `Content-Type` says (502).
    case unusableBody(String)
}

/// Where requests go: a live upstream through AsyncHTTPClient, or recordings answered offline
/// by `ReplayTransport` (`parley-gateway --replay DIR`).
enum Upstream: Sendable {
    case live(HTTPClient)
    case replay(ReplayTransport)

    /// Sends `request`; the timeout covers the wait for the response head only, so a long body
    /// streams for as long as it takes.
    func send(_ request: HTTPClientRequest, timeout: Duration) async throws(UpstreamFailure) -> UpstreamResponse {
        switch self {
        case .live(let client): try await Self.send(request, with: client, timeout: timeout)
        case .replay(let transport): try await Self.replay(request, with: transport)
        }
    }

    private static func send(_ request: HTTPClientRequest, with client: HTTPClient,
                             timeout: Duration) async throws(UpstreamFailure) -> UpstreamResponse {
        let outcome: Result<HTTPClientResponse, UpstreamFailure> = await withTaskGroup(of: Result<HTTPClientResponse, UpstreamFailure>?.self) { group in
            group.addTask {
                do { return .success(try await client.execute(request, deadline: .distantFuture)) } catch {
                    return .failure(.unreachable(String(describing: error)))
                }
            }
            group.addTask {
                do { try await Task.sleep(for: timeout) } catch { return nil }
                return .failure(.timedOut(timeout))
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(.timedOut(timeout))
        }
        let response = try outcome.get()
        var fields = HTTPFields()
        for header in response.headers {
            guard let name = HTTPField.Name(header.name) else { continue }
            fields.append(HTTPField(name: name, value: header.value))
        }
        return UpstreamResponse(head: HTTPResponse(status: .init(code: Int(response.status.code),
                                                                  reasonPhrase: response.status.reasonPhrase),
                                                   headerFields: fields),
                                body: response.body)
    }

    /// The recorded response to `request`, its content coding undone as the replay transport does.
    private static func replay(_ request: HTTPClientRequest, with transport: ReplayTransport) async throws(UpstreamFailure) -> UpstreamResponse {
        guard let url = URL(string: request.url), let scheme = url.scheme, let host = url.host else {
            throw .unreachable("'\(request.url)' is not a URL")
        }
        let authority = url.port.map { "\(host):\($0)" } ?? host
        let query = url.query.map { "?\($0)" } ?? ""
        var fields = HTTPFields()
        for header in request.headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        let head = HTTPRequest(method: HTTPRequest.Method(request.method.rawValue) ?? .get, scheme: scheme, authority: authority,
                               path: (url.path.isEmpty ? "/" : url.path) + query, headerFields: fields)
        do {
            let (response, body) = try await transport.send(head, body: nil)
            return UpstreamResponse(head: response, body: .bytes(ByteBuffer(bytes: body)))
        } catch {
            throw .unreachable("no recording answers it: \(error)")
        }
    }
}

extension HTTPClientRequest {
    /// A request for `url` with `method` and `fields` (all of them, repeats kept; AsyncHTTPClient
    /// sets `Host` from the URL).
    init(url: String, method: HTTPRequest.Method, fields: HTTPFields) {
        self.init(url: url)
        self.method = HTTPMethod(rawValue: method.rawValue)
        var headers = HTTPHeaders()
        for field in fields { headers.add(name: field.name.rawName, value: field.value) }
        self.headers = headers
    }
}
