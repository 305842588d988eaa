public import HTTPTypes
import Parley

/// Undoes one HTTP content coding (RFC 9110 §8.4.1) for the response pipeline.
///
/// The core has no compression library; `ParleyCompression` provides gzip, deflate, br and zstd
/// (`ContentCodings.standard`; `ContentCodings.zlib` for gzip and deflate only). Write your own
/// to add a coding.
public protocol ContentDecoder: Sendable {
    /// The `Content-Encoding` tokens this decoder undoes, lower-case (`gzip`, `x-gzip`).
    var tokens: [String] { get }

    /// Whether `bytes` carry this coding's signature, so a body stored already decoded (with the
    /// `Content-Encoding` field left in place) is told apart from a corrupt one.
    func looksEncoded(_ bytes: [UInt8]) -> Bool

    /// The decoded body.
    ///
    /// - Parameters:
    ///   - bytes: The coded body.
    ///   - maximumBytes: The most bytes the result may hold.
    /// - Throws: ``ContentDecodingError``: corrupt, truncated, or over `maximumBytes`.
    func decode(_ bytes: [UInt8], maximumBytes: Int) throws(ContentDecodingError) -> [UInt8]
}

/// Applies one HTTP content coding (RFC 9110 §8.4.1) to a body the server side sends.
///
/// The core has no compression library; `ParleyCompression` provides the encoders
/// (`ContentCodings.standard`: zstd, br, gzip, deflate, in that order of preference).
public protocol ContentEncoder: Sendable {
    /// The `Content-Encoding` token this encoder writes, lower-case (`gzip`, `br`).
    var token: String { get }

    /// The coded body.
    func encode(_ bytes: [UInt8]) -> [UInt8]
}

/// Why a content coding could not be undone.
public struct ContentDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The bytes are not valid data of the coding.
        case corrupt
        /// The coded data ends early.
        case truncated
        /// The decoded body would exceed this many bytes.
        case limitExceeded(maximum: Int)
    }

    /// What went wrong.
    public var reason: Reason
    /// A sentence saying what exactly.
    public var description: String

    /// Creates an error.
    public init(_ reason: Reason, _ description: String) {
        self.reason = reason
        self.description = description
    }
}

/// The content codings a pipeline can undo (``ContentDecoder``s) and a server can apply
/// (``ContentEncoder``s).
///
/// ```swift
/// let pipeline = ResponsePipeline(registry: .linked, contentCodings: .standard)   // ParleyCompression
/// ```
public struct ContentCodings: Sendable {
    /// The decoders, first match wins.
    public var decoders: [any ContentDecoder]
    /// The encoders, in the server's order of preference (it breaks ties between equally
    /// acceptable codings).
    public var encoders: [any ContentEncoder]

    /// Creates a set of codings.
    public init(_ decoders: [any ContentDecoder], encoders: [any ContentEncoder] = []) {
        self.decoders = decoders
        self.encoders = encoders
    }

    /// No coding but `identity`.
    public static let none = ContentCodings([])

    /// The decoder for a `Content-Encoding` token (case-insensitive), or `nil`.
    public func decoder(for token: String) -> (any ContentDecoder)? {
        let lower = token.lowercased()
        return decoders.first { $0.tokens.contains(lower) }
    }

    /// The encoder writing a `Content-Encoding` token (case-insensitive), or `nil`.
    public func encoder(for token: String) -> (any ContentEncoder)? {
        let lower = token.lowercased()
        return encoders.first { $0.token == lower }
    }

    /// The `Content-Encoding` tokens of a response, in the order they were applied.
    public static func tokens(of fields: HTTPFields) -> [String] {
        fields[values: .contentEncoding].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingSpacesAndTabs().lowercased() }.filter { !$0.isEmpty }
    }
}
