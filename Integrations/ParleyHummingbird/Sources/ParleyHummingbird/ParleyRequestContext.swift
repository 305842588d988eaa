public import Hummingbird
import Parley
public import ParleyHTTP

/// A request context whose `request.decode(as:context:)` and `Encodable` answers go through
/// Parley: adopt it in your own context and say which ``ParleyServer`` to use.
///
/// ```swift
/// struct AppContext: ParleyRequestContext {
///     var coreContext: CoreRequestContextStorage
///     init(source: Source) { coreContext = .init(source: source) }
///     static let parley = ParleyServer(registry: .linked, contentCodings: .zlib)   // the one line
/// }
/// ```
public protocol ParleyRequestContext: RequestContext
where Decoder == ParleyRequestDecoder, Encoder == ParleyResponseEncoder {
    /// The formats, codings and limits requests of this context use.
    static var parley: ParleyServer { get }
}

extension ParleyRequestContext {
    /// Decodes request bodies by their `Content-Type` with ``parley``.
    public var requestDecoder: ParleyRequestDecoder { ParleyRequestDecoder(server: Self.parley) }

    /// Encodes `Encodable` answers by the request's `Accept` with ``parley``.
    public var responseEncoder: ParleyResponseEncoder { ParleyResponseEncoder(server: Self.parley) }
}

extension RequestContext {
    /// The ``ParleyServer`` of a ``ParleyRequestContext``, or `nil` for another context.
    var parleyServer: ParleyServer? {
        (self as? any ParleyRequestContext).map { type(of: $0).parley }
    }
}
