public import ParleyHTTP

/// Undoes one content coding for the response pipeline (a `ContentDecoder`), with
/// ``Decompressor``.
///
/// ```swift
/// let pipeline = ResponsePipeline(registry: .linked, contentCodings: .standard)
/// ```
public struct CompressionDecoder: ContentDecoder {
    /// The coding undone.
    public let coding: ContentCoding

    /// Creates a decoder for `coding`.
    public init(_ coding: ContentCoding) {
        self.coding = coding
    }

    public var tokens: [String] { coding.tokens }

    /// ``Decompressor/looksEncoded(_:coding:)``.
    public func looksEncoded(_ bytes: [UInt8]) -> Bool {
        Decompressor.looksEncoded(bytes, coding: coding)
    }

    public func decode(_ bytes: [UInt8], maximumBytes: Int) throws(ContentDecodingError) -> [UInt8] {
        do {
            return try Decompressor(maximumBytes: maximumBytes).decompress(bytes, coding: coding)
        } catch {
            throw ContentDecodingError(error.reason, error.description)
        }
    }
}

/// The decoder gzip and deflate had before br and zstd joined them.
@available(*, deprecated, renamed: "CompressionDecoder")
public typealias ZlibContentDecoder = CompressionDecoder

/// Applies one content coding to a body a server sends (a `ContentEncoder`), with
/// ``Compressor``.
public struct CompressionEncoder: ContentEncoder {
    /// The coding applied.
    public let coding: ContentCoding
    /// The levels it compresses at.
    public var compressor: Compressor

    /// Creates an encoder for `coding` at `compressor`'s levels (default: zlib 6, Brotli 4, Zstandard 3).
    public init(_ coding: ContentCoding, compressor: Compressor = Compressor()) {
        self.coding = coding
        self.compressor = compressor
    }

    public var token: String { coding.rawValue }

    public func encode(_ bytes: [UInt8]) -> [UInt8] {
        compressor.compress(bytes, coding: coding)
    }
}

extension ContentCodings {
    /// gzip (`gzip`, `x-gzip`) and deflate, on zlib, both ways.
    public static let zlib = ContentCodings([CompressionDecoder(.gzip), CompressionDecoder(.deflate)],
                                            encoders: [CompressionEncoder(.gzip), CompressionEncoder(.deflate)])

    /// Every coding `ParleyCompression` has, both ways: gzip, deflate, br and zstd.
    ///
    /// The encoders' order is the server's preference between codings a request accepts
    /// equally (Chrome sends `gzip, deflate, br, zstd`, all at q=1):
    /// 1. `zstd` at level 3: as small as gzip's level 6 on API JSON in much less time, and the
    ///    fastest to decode;
    /// 2. `br` at quality 4: the smallest output, for clients without zstd;
    /// 3. `gzip`: what every client decodes;
    /// 4. `deflate` last: clients disagree whether it means zlib or raw deflate data.
    public static let standard = ContentCodings(
        [
            CompressionDecoder(.gzip), CompressionDecoder(.deflate), CompressionDecoder(.brotli),
            CompressionDecoder(.zstd)
        ],
        encoders: [
            CompressionEncoder(.zstd), CompressionEncoder(.brotli), CompressionEncoder(.gzip),
            CompressionEncoder(.deflate)
        ])
}
