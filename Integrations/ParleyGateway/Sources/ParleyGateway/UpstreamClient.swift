import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

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

/// Sends requests upstream with AsyncHTTPClient; the timeout covers the wait for the response
/// head only, so a long body streams for as long as it takes.
struct UpstreamClient: Sendable {
    let client: HTTPClient

    func send(_ request: HTTPClientRequest, timeout: Duration) async throws(UpstreamFailure) -> UpstreamResponse {
        let outcome: Result<HTTPClientResponse, UpstreamFailure> = await withTaskGroup(of: Result<HTTPClientResponse, UpstreamFailure>?.self) { group in
            group.addTask {
                do { return .success(try await client.execute(request, deadline: .distantFuture)) } catch let error as HTTPClientError where error == .readTimeout {
                    return .failure(.timedOut(timeout))   // the client's idle read timeout can win the race by a hair
                } catch {
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
