public import Parley

extension ImageKind {
    /// Recognises an image format from its first bytes, whatever the body is labelled.
    ///
    /// ```swift
    /// ImageKind(sniffing: body)   // .jpeg for a JPEG served as image/png
    /// ```
    /// The checks: PNG's 8-byte signature; JPEG's `FF D8 FF`; `GIF87a` or `GIF89a`; `RIFF….WEBP`;
    /// `BM` followed by a known DIB header size; an ICO or CUR directory with at least one entry;
    /// TIFF and BigTIFF byte-order marks with their magic number. Returns `nil` otherwise.
    public init?(sniffing bytes: some Sequence<UInt8>) {
        guard let kind = withContiguousBytes(of: bytes, { ImageKind.sniff($0) }) else { return nil }
        self = kind
    }

    /// The real kind of a body whose magic bytes contradict its label: `.jpeg` for a JPEG
    /// labelled `image/png`. `nil` when the label fits (aliases included), when the label is not
    /// an image type, or when the bytes are no image Parley recognises.
    ///
    /// ```swift
    /// if let real = ImageKind.mislabelling(of: body, labelledAs: contentType) {
    ///     report("labelled \(contentType) but the bytes are \(real.mediaType)")
    /// }
    /// ```
    public static func mislabelling(of bytes: some Sequence<UInt8>, labelledAs mediaType: MediaType) -> ImageKind? {
        guard let labelled = ImageKind(mediaType: mediaType), let real = ImageKind(sniffing: bytes), real != labelled
        else {
            return nil
        }
        return real
    }

    /// The format of `bytes` from their magic bytes, or `nil`.
    static func sniff(_ raw: UnsafeRawBufferPointer) -> ImageKind? {
        let b = raw.bindMemory(to: UInt8.self)
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            guard b.count >= offset + prefix.count else { return false }
            for i in 0..<prefix.count where b[offset + i] != prefix[i] { return false }
            return true
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])
            || starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B]) { return .tiff }
        if starts([0x42, 0x4D]) && b.count >= 18 {
            let headerSize = ByteReader(raw).uint32LE(at: 14)
            if [12, 16, 40, 52, 56, 64, 108, 124].contains(headerSize) { return .bmp }
        }
        if (starts([0, 0, 1, 0]) || starts([0, 0, 2, 0])) && b.count >= 6 && (b[4] != 0 || b[5] != 0) { return .ico }
        return nil
    }
}
