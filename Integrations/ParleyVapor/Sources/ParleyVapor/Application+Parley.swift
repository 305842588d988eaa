public import Parley
public import ParleyHTTP
import ParleyCompression
public import Vapor

extension Application {
    /// Parley in this application: the ``ParleyServer`` that ``Negotiated`` replies,
    /// `req.parley` and ``ParleyMiddleware`` use.
    public var parley: Parley { Parley(application: self) }

    /// Parley's settings for an application.
    public struct Parley: Sendable {
        let application: Application

        struct ServerKey: StorageKey {
            typealias Value = ParleyServer
        }

        /// The server side in use; `nil` until ``use(_:)-(ParleyServer)`` or ``use(_:)-(Registry)``.
        public var server: ParleyServer? {
            application.storage[ServerKey.self]
        }

        /// Installs Parley in one call:
        ///
        /// - keeps `server` for ``Negotiated`` replies and `req.parley`;
        /// - installs a content coder for each media type of its registry into
        ///   `ContentConfiguration.global` (see ``Vapor/ContentConfiguration/use(_:except:)``), so
        ///   `req.content.decode(T.self)` and `response.content.encode(_:as:)` speak every format;
        /// - sets `app.routes.defaultMaxBodySize` to `ParleyServer.maxRequestBodyBytes`, one
        ///   body limit for plain and coded bodies (a route's own `body: .collect(maxSize:)`
        ///   still rules its plain bodies);
        /// - turns Vapor's own request decompression off and adds ``ParleyMiddleware`` after the
        ///   middleware already configured: codings are undone within
        ///   `ParleyServer.maxDecompressedBytes` (a bomb is 413, not a dropped connection), and
        ///   errors become problem documents.
        ///
        /// `ContentConfiguration.global` is process-wide in Vapor: every application in the
        /// process sees the same coders.
        public func use(_ server: ParleyServer) {
            application.storage[ServerKey.self] = server
            ContentConfiguration.global.use(server.registry)
            application.routes.defaultMaxBodySize = ByteCount(value: server.maxRequestBodyBytes)
            application.http.server.configuration.requestDecompression = .disabled
            application.middleware.use(ParleyMiddleware(server: server))
        }

        /// Installs Parley with `registry`, gzip and deflate request bodies, and the body limit
        /// Vapor has now (`app.routes.defaultMaxBodySize`, 16 KB unless configured), as
        /// ``use(_:)-(ParleyServer)`` does.
        ///
        /// ```swift
        /// let app = try await Application.make(.production)
        /// app.parley.use(Registry.linked)
        /// app.get("user") { _ in Negotiated(encoding: User(id: 7)) }
        /// ```
        public func use(_ registry: Registry) {
            let limit = application.routes.defaultMaxBodySize.value
            use(ParleyServer(registry: registry, contentCodings: .zlib, maxRequestBodyBytes: limit,
                             maxDecompressedBytes: limit))
        }
    }
}
