import Parley

extension ImageInfo {
    /// Reads an image's header without decoding its pixels: the header-only fast path.
    ///
    /// The format comes from the magic bytes (``ImageKind/init(sniffing:)``). Frames are counted
    /// (GIF blocks are walked without LZW decoding; WebP through its demuxer; TIFF directories).
    ///
    /// - Throws: `FormatError`: `malformed` (not an image, or a broken header),
    ///   `truncated`, or `limitExceeded` when the header declares more than `limits` allow.
    public init(reading bytes: some Sequence<UInt8>, limits: ImageLimits = .standard) throws {
        self = try withContiguousBytes(of: bytes) { try ImageInfo.read($0, limits: limits) }
    }

    /// The header-only path on raw bytes.
    static func read(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws -> ImageInfo {
        let kind = try ImageKind.require(bytes, limits: limits)
        let info = try kind.reader.info(bytes, limits: limits)
        try limits.check(info)
        return info
    }
}

extension Image {
    /// Decodes an image: its header, then its first frame as RGBA8.
    ///
    /// Limits are checked from the header before the pixel buffer is allocated, and one memory
    /// budget (`maxDecompressedBytes`) covers the pixel buffer and what the library holds for
    /// this input (see <doc:ParleyImage#Limits-and-the-memory-budget>).
    ///
    /// - Throws: `FormatError`: `malformed`, `truncated` or `limitExceeded`.
    public init(decoding bytes: some Sequence<UInt8>, limits: ImageLimits = .standard) throws {
        self = try withContiguousBytes(of: bytes) { try Image.decode($0, limits: limits) }
    }

    /// The full decode on raw bytes.
    static func decode(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws -> Image {
        let info = try ImageInfo.read(bytes, limits: limits)
        guard let count = ImageBudget.product(info.width, info.height, 4) else {
            throw FormatError.limitExceeded(format: info.kind.name, limit: "maxDecompressedBytes",
                                            maximum: limits.maxDecompressedBytes)
        }
        var budget = ImageBudget(limits)
        try budget.charge(count, for: "the \(info.width)×\(info.height) RGBA8 pixel buffer", format: info.kind.name)
        try info.kind.reader.reserve(bytes, info: info, limits: limits, budget: &budget)
        let pixels = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try info.kind.reader.decodePixels(bytes, info: info, limits: limits, budget: budget,
                                              into: UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
        return Image(info: info, pixels: pixels)
    }
}

extension ImageKind {
    /// The sniffed kind of `bytes` after the body-size check, or a `malformed` error.
    static func require(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws -> ImageKind {
        if bytes.count > limits.maxBodyBytes {
            throw FormatError.limitExceeded(format: "image", limit: "maxBodyBytes", maximum: limits.maxBodyBytes,
                                            actual: bytes.count)
        }
        if let kind = sniff(bytes) { return kind }
        if bytes.isEmpty { throw FormatError(.malformed, format: "image", "the body is empty") }
        let head = bytes.prefix(8).map { String($0, radix: 16, uppercase: true) }
            .map { $0.count == 1 ? "0" + $0 : $0 }.joined(separator: " ")
        let gif = bytes.starts(with: Array("GIF".utf8)) ? " (a GIF version other than 87a or 89a)" : ""
        throw FormatError(.malformed, format: "image",
                          "not a PNG, JPEG, GIF, WebP, BMP, ICO or TIFF image\(gif): starts with \(head)")
    }
}
