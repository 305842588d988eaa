import AsyncHTTPClient
public import HTTPTypes
import NIOCore
import NIOHTTP1

extension AsyncHTTPClientTransport {
    /// Why a request through the transport failed, by ``code``; AsyncHTTPClient's or NIO's own
    /// error is in ``underlying``.
    ///
    /// A proxy answers ``impliedStatus``: 502 Bad Gateway for ``Code/connectionFailed``,
    /// ``Code/invalidResponse`` and ``Code/responseIncomplete``, 504 Gateway Timeout for
    /// ``Code/timedOut``.
    ///
    /// ```swift
    /// do { upstream = try await transport.stream(request) }
    /// catch let failure as AsyncHTTPClientTransport.Failure where failure.code == .timedOut { … 504 }
    /// ```
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong. An open set; compare by code.
        public struct Code: Hashable, Sendable, CustomStringConvertible {
            /// A short identifier such as `"timedOut"`.
            public let rawValue: String
            /// Creates a code.
            public init(_ rawValue: String) { self.rawValue = rawValue }
            public var description: String { rawValue }

            /// No connection could be made or used, or it closed or failed before the response
            /// head: refused, reset, unreachable, a TLS failure, a client already shut down.
            public static let connectionFailed = Code("connectionFailed")
            /// No response head arrived within the transport's `responseHeadTimeout`, or a
            /// timeout of the client's own (connect, read, TLS handshake) passed before it did.
            public static let timedOut = Code("timedOut")
            /// The request cannot be sent: no `http`/`https` scheme, no authority, a path that is
            /// not `/…`, or a field or body AsyncHTTPClient refuses.
            public static let invalidRequest = Code("invalidRequest")
            /// The response head is not valid HTTP (malformed status line or fields), or the
            /// server's redirects loop.
            public static let invalidResponse = Code("invalidResponse")
            /// The connection closed or failed after the head, before the body ended: the body is
            /// truncated.
            public static let responseIncomplete = Code("responseIncomplete")
        }

        /// What went wrong.
        public var code: Code
        /// A one-line explanation.
        public var message: String
        /// The error of AsyncHTTPClient or NIO behind this one, when there is one.
        public var underlying: (any Error & Sendable)?

        /// Creates a failure.
        public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
            self.code = code
            self.message = message
            self.underlying = underlying
        }

        /// The status a gateway answers with: 504 for ``Code/timedOut``, 500 for
        /// ``Code/invalidRequest`` (the gateway built a request it cannot send), 502 otherwise.
        public var impliedStatus: HTTPResponse.Status {
            switch code {
            case .timedOut: .gatewayTimeout
            case .invalidRequest: .internalServerError
            default: .badGateway
            }
        }

        public var description: String {
            guard let underlying else { return "\(code): \(message)" }
            return "\(code): \(message) (\(underlying))"
        }
    }
}

extension AsyncHTTPClientTransport.Failure {
    /// AsyncHTTPClient errors about the request itself.
    private static let requestErrors: [HTTPClientError] = [
        .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath, .traceRequestWithBody, .bodyLengthMismatch,
        .identityCodingIncorrectlyPresent, .contentLengthMissing, .writeAfterRequestSent, .requestStreamCancelled,
    ]
    /// AsyncHTTPClient timeouts, all before the head when they end a request that has none.
    private static let timeouts: [HTTPClientError] = [
        .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout,
        .socksHandshakeTimeout, .httpProxyHandshakeTimeout, .getConnectionFromPoolTimeout,
    ]
    /// AsyncHTTPClient errors about what the server sent.
    private static let responseErrors: [HTTPClientError] = [
        .redirectLimitReached, .redirectCycleDetected, .invalidProxyResponse,
    ]

    /// The error to throw for `error`, thrown by AsyncHTTPClient before the head arrived or while
    /// the body was read: a `Failure`, or `CancellationError` when the task was cancelled.
    static func classifying(_ error: any Error, readingBody: Bool, headTimeout: Duration?) -> any Error {
        if error is Self || error is CancellationError { return error }
        let clientError = error as? HTTPClientError
        if Task.isCancelled, clientError == nil || clientError == .cancelled { return CancellationError() }
        if readingBody {
            return Self(.responseIncomplete, "the connection ended before the response body did", underlying: error)
        }
        if let clientError {
            if clientError == .deadlineExceeded, let headTimeout {
                return Self(.timedOut, "no response head within \(headTimeout)", underlying: clientError)
            }
            if timeouts.contains(clientError) {
                return Self(.timedOut, "no response head before the client's timeout", underlying: clientError)
            }
            if requestErrors.contains(clientError) {
                return Self(.invalidRequest, "the request cannot be sent", underlying: clientError)
            }
            if responseErrors.contains(clientError) {
                return Self(.invalidResponse, "the server's response is not usable", underlying: clientError)
            }
        }
        if error is HTTPParserError {
            return Self(.invalidResponse, "the response head is not valid HTTP", underlying: error)
        }
        return Self(.connectionFailed, "no response: the connection failed", underlying: error)
    }
}
