public import AsyncHTTPClient
public import HTTPTypes
public import NIOCore
import Parley

extension AsyncHTTPClientTransport {
    /// A response whose head has arrived and whose body is still to be read, chunk by chunk.
    ///
    /// ```swift
    /// let upstream = try await transport.stream(request)
    /// print(upstream.response.status)
    /// for try await chunk in upstream.body { try await writer.write(chunk) }   // or:
    /// let bytes = try await upstream.collect(upTo: 1 << 20)
    /// ```
    ///
    /// The body can be read once (a second iteration is a programming error AsyncHTTPClient
    /// traps on). Dropping it unread closes the connection.
    public struct StreamedResponse: Sendable {
        /// The response head: status and header fields as received, in order, repeats kept.
        public let response: HTTPResponse
        /// The body, as the bytes arrive (any `Content-Encoding` kept).
        public let body: Body

        /// The body length the head announces: its `Content-Length`, except for an answer to
        /// `HEAD` and a 1xx, 204 or 304 status, which have no body whatever it says.
        public let declaredBodyLength: Int?

        /// Creates a response from a head, a body and the method of the request it answers.
        public init(response: HTTPResponse, body: Body, requestMethod: HTTPRequest.Method) {
            self.response = response
            self.body = body
            let status = response.status.code
            if requestMethod == .head || status < 200 || status == 204 || status == 304 {
                declaredBodyLength = 0
            } else {
                declaredBodyLength = response.headerFields[.contentLength].flatMap { Int($0) }
                    .flatMap { $0 >= 0 ? $0 : nil }
            }
        }

        /// Reads the whole body, stopping as soon as it passes `maxBytes`: a
        /// ``declaredBodyLength`` over it stops before any byte is read, so no more than `maxBytes`
        /// and one chunk are ever read.
        ///
        /// - Parameter maxBytes: The largest body accepted, in bytes.
        /// - Returns: The body bytes.
        /// - Throws: `ParleyError` with `ParleyError.Code.limitExceeded` and
        ///   `ParleyError.limit` named `maxResponseBodyBytes` (carrying ``response``);
        ///   ``Failure`` with ``Failure/Code/responseIncomplete`` when the connection ends or
        ///   fails before the body does; `CancellationError`.
        public func collect(upTo maxBytes: Int) async throws -> [UInt8] {
            if let declared = declaredBodyLength, declared > maxBytes {
                throw bodyTooLarge(maxBytes, declared, "declares")
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(min(declaredBodyLength ?? 0, maxBytes))
            for try await chunk in body {
                guard chunk.readableBytes <= maxBytes - bytes.count else {
                    throw bodyTooLarge(maxBytes, bytes.count + chunk.readableBytes, "reached")
                }
                bytes.append(contentsOf: chunk.readableBytesView)
            }
            return bytes
        }

        private func bodyTooLarge(_ maxBytes: Int, _ actual: Int, _ verb: String) -> ParleyError {
            ParleyError(.limitExceeded,
                        "the response body \(verb) \(actual) bytes, over maxResponseBodyBytes (\(maxBytes))",
                        response: response,
                        limit: FormatError.Limit(name: "maxResponseBodyBytes", maximum: maxBytes, actual: actual))
        }
    }
}

extension AsyncHTTPClientTransport.StreamedResponse {
    /// A response body as an asynchronous sequence of `ByteBuffer`s, in the sizes they arrive:
    /// AsyncHTTPClient reads from the socket only as fast as the sequence is consumed.
    ///
    /// Iterating throws ``AsyncHTTPClientTransport/Failure`` with
    /// ``AsyncHTTPClientTransport/Failure/Code/responseIncomplete`` when the connection closes or
    /// fails before the body ends (a reset, a short `Content-Length`, a read timeout), or
    /// `CancellationError`.
    public struct Body: AsyncSequence, Sendable {
        /// A chunk of the body.
        public typealias Element = ByteBuffer

        private let base: HTTPClientResponse.Body

        /// Wraps AsyncHTTPClient's response body.
        public init(_ base: HTTPClientResponse.Body) {
            self.base = base
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: base.makeAsyncIterator())
        }

        /// Reads the next chunk.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: HTTPClientResponse.Body.AsyncIterator

            public mutating func next() async throws -> ByteBuffer? {
                do {
                    return try await base.next()
                } catch {
                    throw AsyncHTTPClientTransport.Failure.classifying(error, readingBody: true, headTimeout: nil)
                }
            }
        }
    }
}
