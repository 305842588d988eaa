public import Parley

extension ImageFormat {
    /// The canonical media type of the image kind the magic bytes announce
    /// (``ImageKind/init(sniffing:)``): PNG, JPEG, GIF, WebP, BMP, ICO or TIFF.
    public func sniff(_ bytes: UnsafeRawBufferPointer) -> MediaType? {
        ImageKind.sniff(bytes)?.mediaType
    }

    /// Whether `label` and `sniffed` name different image kinds (a JPEG labelled `image/png`);
    /// aliases of one kind (`image/x-png`) do not.
    public func contradicts(label: MediaType, sniffed: MediaType) -> Bool {
        guard let labelled = ImageKind(mediaType: label), let real = ImageKind(mediaType: sniffed) else { return false }
        return labelled != real
    }
}
