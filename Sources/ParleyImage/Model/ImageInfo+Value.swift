public import Parley

extension ImageInfo {
    /// The image's metadata as an ordered object, as ``ImageFormat`` decodes it:
    ///
    /// ```
    /// {"mediaType": "image/png", "format": "png", "width": 32, "height": 32,
    ///  "colorType": "rgba", "bitDepth": 8, "hasAlpha": true, "frameCount": 1}
    /// ```
    /// `"orientation"` follows when a JPEG's EXIF orientation is not 1. See <doc:ValueMapping>.
    public var value: Value {
        var object: Value.Object = [
            "mediaType": .string(kind.mediaType.description),
            "format": .string(kind.name),
            "width": .integer(Int64(width)),
            "height": .integer(Int64(height)),
            "colorType": .string(colorType.rawValue),
            "bitDepth": .integer(Int64(bitDepth)),
            "hasAlpha": .bool(hasAlpha),
            "frameCount": .integer(Int64(frameCount)),
        ]
        if orientation != 1 { object.append(key: "orientation", value: .integer(Int64(orientation))) }
        return .object(object)
    }
}

extension Image {
    /// Reads an image to encode from a value: an object with `width`, `height` and `pixels`
    /// (RGBA8 bytes, `width * height * 4` of them). Other members are ignored, so a value
    /// decoded with ``ImageFormat/Options/includesPixels`` encodes back.
    ///
    /// - Throws: `FormatError` `unsupportedValue` when a member is missing or wrong.
    public init(_ value: Value) throws {
        guard let width = value["width"]?.integerValue, let height = value["height"]?.integerValue,
              let pixels = value["pixels"]?.bytesValue,
              let w = Int(exactly: width), let h = Int(exactly: height) else {
            throw FormatError(
                .unsupportedValue, format: "image",
                "an image value needs integer width and height and RGBA8 bytes in pixels, not \(value.kindName)")
        }
        try self.init(width: w, height: h, rgba: pixels)
    }
}
