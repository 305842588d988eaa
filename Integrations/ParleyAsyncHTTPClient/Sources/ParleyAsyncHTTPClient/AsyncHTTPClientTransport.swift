public import AsyncHTTPClient
public import HTTPTypes
import NIOCore
public import Parley
public import ParleyHTTP

/// An `HTTPTransport` on AsyncHTTPClient: `ParleyClient`'s `Client` sends through it, and a proxy
/// streams upstream responses through ``stream(_:body:)`` without buffering them.
///
/// ```swift
/// let transport = AsyncHTTPClientTransport(maxResponseBodyBytes: 8 << 20, responseHeadTimeout: .seconds(10))
/// let client = Client(baseURL: URL(string: "https://api.example.org/v1/"), transport: transport, registry: .linked)
/// let user = try await client.get("users/7", as: User.self).value
///
/// let upstream = try await transport.stream(request, body: nil)   // the head, then the body in chunks
/// for try await chunk in upstream.body { try await writer.write(chunk) }
/// ```
///
/// ``send(_:body:)`` reads the body chunk by chunk and stops as soon as it passes
/// ``maxResponseBodyBytes`` (a declared `Content-Length` over it stops before reading any byte),
/// so it never reads more than the limit and one chunk. Bodies keep their `Content-Encoding`:
/// the client's response pipeline undoes it within the matched format's limits.
///
/// Failures are ``Failure`` values with a ``Failure/Code`` (``Failure/Code/connectionFailed``,
/// ``Failure/Code/timedOut``, …; `Client` wraps them in `ParleyError.Code.transportFailed`), a
/// body over the limit is a `ParleyError` with `ParleyError.Code.limitExceeded`, and cancelling
/// the calling task throws `CancellationError`.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The client requests run on.
    public let client: HTTPClient
    /// The largest response body ``send(_:body:)`` collects, in bytes. Default
    /// `DecodingLimits.standard.maxBodyBytes` (64 MiB). ``stream(_:body:)`` does not apply it.
    public var maxResponseBodyBytes: Int
    /// How long to wait for the response head (status and fields), from the call on: connecting,
    /// sending the request and the server's work. `nil` waits as long as the client's own timeouts
    /// allow. Default 60 seconds. It does not limit how long the body takes.
    public var responseHeadTimeout: Duration?

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - client: The client to run on. Default ``sharedClient`` (``defaultConfiguration``:
    ///     no redirects followed, no decompression, a refused connection fails at once). A client
    ///     you create is yours to shut down.
    ///   - maxResponseBodyBytes: The largest body ``send(_:body:)`` collects, in bytes.
    ///   - responseHeadTimeout: How long to wait for the response head; `nil` for no limit of
    ///     the transport's own.
    public init(client: HTTPClient = AsyncHTTPClientTransport.sharedClient,
                maxResponseBodyBytes: Int = DecodingLimits.standard.maxBodyBytes,
                responseHeadTimeout: Duration? = .seconds(60)) {
        self.client = client
        self.maxResponseBodyBytes = maxResponseBodyBytes
        self.responseHeadTimeout = responseHeadTimeout
    }

    /// Sends `request` with `body` and collects the response body, at most
    /// ``maxResponseBodyBytes``.
    ///
    /// - Returns: The response head and the body bytes, as received (any `Content-Encoding` kept).
    /// - Throws: ``Failure`` (``Failure/Code/connectionFailed``, ``Failure/Code/timedOut``,
    ///   ``Failure/Code/invalidRequest``, ``Failure/Code/invalidResponse``,
    ///   ``Failure/Code/responseIncomplete``); `ParleyError` with
    ///   `ParleyError.Code.limitExceeded` for a body over ``maxResponseBodyBytes``;
    ///   `CancellationError`.
    public func send(_ request: HTTPRequest, body: RequestBody?) async throws -> (HTTPResponse, [UInt8]) {
        let streamed = try await stream(request, body: body.map { HTTPClientRequest.Body($0) })
        return (streamed.response, try await streamed.collect(upTo: maxResponseBodyBytes))
    }

    /// Sends `request` and returns as soon as the response head arrives, with the body still to
    /// be read, chunk by chunk, from ``StreamedResponse/body``.
    ///
    /// ``responseHeadTimeout`` covers the wait for the head only: a body may take as long as it
    /// takes (the client's read timeout still applies between two chunks). Read the body to its
    /// end, or drop it to close the connection.
    ///
    /// - Parameters:
    ///   - request: The request; its scheme (`http` or `https`), authority and path make the URL,
    ///     and every header field is sent in order (repeated fields too) except `Host`, which
    ///     AsyncHTTPClient sets from the authority. `Content-Length` and `Transfer-Encoding`
    ///     follow `body`.
    ///   - body: The request body; `nil` for none.
    /// - Returns: The response head and its unread body.
    /// - Throws: ``Failure`` (``Failure/Code/connectionFailed``, ``Failure/Code/timedOut``,
    ///   ``Failure/Code/invalidRequest``, ``Failure/Code/invalidResponse``) or
    ///   `CancellationError`.
    public func stream(_ request: HTTPRequest, body: HTTPClientRequest.Body? = nil) async throws -> StreamedResponse {
        let clientRequest = try HTTPClientRequest(request, body: body)
        let deadline = responseHeadTimeout.map { NIODeadline.now() + TimeAmount($0) } ?? .distantFuture
        let response: HTTPClientResponse
        do {
            // AsyncHTTPClient cancels its deadline once the head arrives (1.37: the deadline
            // task is cancelled when `execute` returns), so the body is not cut by it; a test
            // stalls a body past the timeout to hold this.
            response = try await client.execute(clientRequest, deadline: deadline)
        } catch {
            throw Failure.classifying(error, readingBody: false, headTimeout: responseHeadTimeout)
        }
        return StreamedResponse(response: try HTTPResponse(response), body: StreamedResponse.Body(response.body),
                                requestMethod: request.method)
    }
}
