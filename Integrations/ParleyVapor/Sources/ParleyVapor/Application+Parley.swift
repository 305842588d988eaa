public import Parley
public import ParleyCompression
public import Vapor

extension Application {
    /// Parley in this application: the registry ``Negotiated`` replies and ``ParleyMiddleware``
    /// answer with.
    public var parley: Parley { Parley(application: self) }

    /// Parley's settings for an application.
    public struct Parley: Sendable {
        let application: Application

        struct RegistryKey: StorageKey {
            typealias Value = Registry
        }

        /// The registry negotiated replies use; `nil` until ``use(_:contentCodings:maxBodySize:)``.
        public var registry: Registry? {
            application.storage[RegistryKey.self]
        }

        /// Installs Parley in one call: keeps `registry` for ``Negotiated`` replies, installs a
        /// content coder for each of its media types into `ContentConfiguration.global` (see
        /// ``Vapor/ContentConfiguration/use(_:except:)``), and adds ``ParleyMiddleware`` after
        /// the middleware already configured (problem details for errors, compressed request bodies).
        /// It turns Vapor's own request decompression off, since the middleware undoes codings
        /// within the body limit and answers a decompression bomb with 413.
        ///
        /// ```swift
        /// let app = try await Application.make(.production)
        /// app.parley.use(Registry.linked)
        /// app.get("user") { _ in Negotiated(encoding: User(id: 7)) }
        /// ```
        ///
        /// `ContentConfiguration.global` is process-wide in Vapor: every application in the process
        /// sees the same coders.
        ///
        /// - Parameters:
        ///   - registry: The formats to answer and decode with.
        ///   - contentCodings: The request `Content-Encoding`s undone before routing.
        ///   - maxBodySize: The most bytes a compressed request body and its decompressed form may
        ///     hold; `nil` uses `app.routes.defaultMaxBodySize` at each request.
        public func use(_ registry: Registry, contentCodings: ContentCodings = .zlib, maxBodySize: Int? = nil) {
            application.storage[RegistryKey.self] = registry
            // Vapor decompresses request bodies itself by default, by a ratio, and drops the
            // connection on a bomb; Parley's middleware does it within the body limit instead.
            application.http.server.configuration.requestDecompression = .disabled
            ContentConfiguration.global.use(registry)
            application.middleware.use(ParleyMiddleware(registry: registry, contentCodings: contentCodings,
                                                        maxBodySize: maxBodySize))
        }
    }
}
