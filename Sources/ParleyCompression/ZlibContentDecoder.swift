public import Parley

/// gzip or deflate for the response pipeline, on zlib.
///
/// ```swift
/// let pipeline = ResponsePipeline(registry: .linked, contentCodings: .zlib)
/// ```
public struct ZlibContentDecoder: ContentDecoder {
    /// The coding undone: ``ContentCoding/gzip`` or ``ContentCoding/deflate``.
    public let coding: ContentCoding

    /// Creates a decoder for `coding`.
    public init(_ coding: ContentCoding) {
        self.coding = coding
    }

    public var tokens: [String] {
        switch coding {
        case .gzip: ["gzip", "x-gzip"]
        case .deflate: ["deflate"]
        case .identity: ["identity"]
        }
    }

    public func looksEncoded(_ bytes: [UInt8]) -> Bool {
        switch coding {
        case .gzip: Decompressor.looksLikeGzip(bytes)
        case .deflate: Decompressor.looksLikeZlib(bytes)
        case .identity: false
        }
    }

    public func decode(_ bytes: [UInt8], maximumBytes: Int) throws(ContentDecodingError) -> [UInt8] {
        do {
            return try Decompressor(maximumBytes: maximumBytes).decompress(bytes, coding: coding)
        } catch {
            throw ContentDecodingError(error.reason, error.description)
        }
    }
}

extension ContentCodings {
    /// gzip (`gzip`, `x-gzip`) and deflate, on zlib.
    public static let zlib = ContentCodings([ZlibContentDecoder(.gzip), ZlibContentDecoder(.deflate)])
}
