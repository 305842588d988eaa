public import HTTPTypes
public import Parley

/// Sends a request and returns the response with its whole body: the one seam between
/// `ParleyClient`'s `Client` and the network.
///
/// `ParleyClient` ships `URLSessionTransport` (the live network) and `InMemoryTransport` (canned
/// or computed responses); `ParleyFixtures`' `ReplayTransport` answers from recorded exchanges.
/// The protocol lives in the core so a transport can be written, and recordings replayed,
/// without linking the client's networking (FoundationNetworking and curl). A transport does not validate statuses
/// or decode bodies — the client's response serializers do — and returns the body after any `Content-Encoding` it
/// removed.
public protocol HTTPTransport: Sendable {
    /// Sends `request` with `body` (`nil` for none).
    ///
    /// - Returns: The response head and body bytes.
    /// - Throws: Whatever the transport fails with (connection errors, a body over a limit);
    ///   the client wraps it in a `ParleyError` with `ParleyError.Code.transportFailed`.
    func send(_ request: HTTPRequest, body: RequestBody?) async throws -> (HTTPResponse, [UInt8])
}

extension ParleyError.Code {
    /// The transport failed before a response arrived (connection refused, timeout, …); see
    /// `ParleyError.underlying`.
    public static let transportFailed = ParleyError.Code("transportFailed")
}
