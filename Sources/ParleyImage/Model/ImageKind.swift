public import Parley

/// An image file format Parley reads: PNG, JPEG, GIF, WebP, BMP, ICO or TIFF.
///
/// Each kind knows the media types it is labelled with (its canonical type first, then the
/// aliases servers send) and is recognised from its magic bytes with ``init(sniffing:)``.
public struct ImageKind: Sendable, Hashable, CustomStringConvertible {
    /// A short lower-case name: `"png"`, `"jpeg"`, `"gif"`, `"webp"`, `"bmp"`, `"ico"`, `"tiff"`.
    public let name: String
    /// The media types this kind is labelled with, canonical first.
    public let mediaTypes: [MediaType]

    /// The canonical media type (`image/png`, `image/jpeg`, …).
    public var mediaType: MediaType { mediaTypes[0] }

    /// Whether Parley encodes this kind (PNG and JPEG).
    public var isEncodable: Bool { self == .png || self == .jpeg }

    private init(_ name: String, _ mediaTypes: [MediaType]) {
        self.name = name
        self.mediaTypes = mediaTypes
    }

    /// `image/png`, with the aliases `image/x-png` and `image/apng`.
    public static let png = ImageKind("png", ["image/png", "image/x-png", "image/apng"])
    /// `image/jpeg`, with the aliases `image/jpg` and `image/pjpeg`.
    public static let jpeg = ImageKind("jpeg", ["image/jpeg", "image/jpg", "image/pjpeg"])
    /// `image/gif`.
    public static let gif = ImageKind("gif", ["image/gif"])
    /// `image/webp`.
    public static let webp = ImageKind("webp", ["image/webp"])
    /// `image/bmp`, with the aliases `image/x-bmp`, `image/x-ms-bmp`, and AFNetworking's
    /// `image/x-win-bitmap` and `image/x-xbitmap`.
    public static let bmp = ImageKind("bmp", ["image/bmp", "image/x-bmp", "image/x-ms-bmp",
                                              "image/x-win-bitmap", "image/x-xbitmap"])
    /// `image/vnd.microsoft.icon`, with the aliases `image/x-icon` and `image/ico` (cursors too).
    public static let ico = ImageKind("ico", ["image/vnd.microsoft.icon", "image/x-icon", "image/ico"])
    /// `image/tiff`, with the alias `image/x-tiff`.
    public static let tiff = ImageKind("tiff", ["image/tiff", "image/x-tiff"])

    /// Every kind, in the order ``ImageFormat`` declares their media types.
    public static let all: [ImageKind] = [.png, .jpeg, .gif, .webp, .bmp, .ico, .tiff]

    /// The kind a media type labels (parameters ignored), or `nil` for other types.
    public init?(mediaType: MediaType) {
        let essence = mediaType.essence
        guard let kind = ImageKind.all.first(where: { $0.mediaTypes.contains { $0.essence == essence } }) else {
            return nil
        }
        self = kind
    }

    public static func == (lhs: ImageKind, rhs: ImageKind) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { name }
}
