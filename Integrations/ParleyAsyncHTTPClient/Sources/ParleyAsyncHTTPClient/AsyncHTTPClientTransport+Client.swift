public import AsyncHTTPClient
import NIOCore

extension AsyncHTTPClientTransport {
    /// The configuration of ``sharedClient``, to start your own from.
    ///
    /// It differs from AsyncHTTPClient's `HTTPClient.shared` where a transport and a proxy need it:
    /// - redirects are not followed: a 3xx response is returned as it is (a proxy passes it on);
    /// - bodies are not decompressed: they arrive byte for byte with their `Content-Encoding`,
    ///   which Parley's response pipeline undoes within its limits (`HTTPClient.shared` decodes
    ///   gzip and deflate but keeps `Content-Encoding` and `Content-Length`, so a proxy would
    ///   forward fields that no longer describe the body);
    /// - a refused connection fails at once (`retryConnectionEstablishment` off), where
    ///   `HTTPClient.shared` retries until its 90-second connect timeout;
    /// - connecting may take 10 seconds, and the server may stay silent for 60 seconds between
    ///   two reads (the read timeout), before the request fails.
    public static var defaultConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .seconds(10), read: .seconds(60))
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// A process-wide client with ``defaultConfiguration`` on NIO's shared event loop group,
    /// never shut down (like `HTTPClient.shared`): the default of
    /// ``init(client:maxResponseBodyBytes:responseHeadTimeout:)``.
    public static let sharedClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                                configuration: defaultConfiguration)
}
