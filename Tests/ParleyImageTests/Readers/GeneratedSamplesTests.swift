import Parley
import ParleyImage
import ParleyTestKit
import Testing

/// The generated samples (`../shared/corpora/image/generated`) against `manifest.json`.
@Suite struct GeneratedSamplesTests {
    static let files = ImageCorpus.paths(under: "generated")

    @Test func corpusIsPresentOrSkippedVisibly() {
        if ImageCorpus.directory == nil {
            print(Corpora.missingMessage("image"))
        } else {
            #expect(Self.files.count == 37)
        }
    }

    /// The colour type each of the manifest's Pillow modes stands for, per format.
    static func expectedColorType(mode: String, format: String, bits: Int?) -> String? {
        switch (mode, format) {
        case ("1", "BMP"), ("P", _): "palette"
        case ("1", _), ("L", _), ("I;16", _): "gray"
        case ("RGB", "WEBP"): nil                              // WebP "RGB" may still carry an alpha chunk
        case ("RGB", _): "rgb"
        case ("RGBA", _): "rgba"
        case ("CMYK", _): "cmyk"
        default: nil
        }
    }

    @Test(arguments: files.filter { ImageCorpus.entry($0).expect == "decode" })
    func decodesAsTheManifestSays(_ path: String) throws {
        let entry = ImageCorpus.entry(path)
        let bytes = try ImageCorpus.bytes(path)
        let image = try Image(decoding: bytes)
        let format = entry.format ?? ""
        #expect(image.info.kind.name == (format == "WEBP" ? "webp" : format.lowercased()))
        if let sizes = entry.sizes {           // ICO: the largest entry, every entry counted
            let largest = sizes.max { $0[0] * $0[1] < $1[0] * $1[1] }!
            #expect([image.width, image.height] == largest)
            #expect(image.info.frameCount == sizes.count)
        } else {
            #expect(image.width == entry.width && image.height == entry.height)
            #expect(image.info.frameCount == entry.frames ?? 1)
        }
        if let mode = entry.mode,
           let color = Self.expectedColorType(mode: mode, format: format, bits: entry.bits) {
            #expect(image.info.colorType.rawValue == color)
        }
        if let bits = entry.bits, bits <= 8 { #expect(image.info.bitDepth == bits) }
        if entry.mode == "I;16" { #expect(image.info.bitDepth == 16) }
        if entry.transparency_index != nil || entry.mode == "RGBA" { #expect(image.info.hasAlpha) }
        #expect(image.pixels.count == image.width * image.height * 4)
    }

    @Test(arguments: files.filter { ImageCorpus.entry($0).expect.hasPrefix("reject") })
    func rejectsBrokenSamplesWithATypedError(_ path: String) throws {
        let bytes = try ImageCorpus.bytes(path)
        #expect { try Image(decoding: bytes) } throws: { error in
            guard let error = error as? FormatError else { return false }
            return [.malformed, .truncated].contains(error.code)
        }
    }

    @Test func rle8PixelsFollowTheManifest() throws {
        guard ImageCorpus.directory != nil else { print(Corpora.missingMessage("image")); return }
        let image = try Image(decoding: ImageCorpus.bytes("generated/bmp-rle8-4x2.bmp"))
        func color(_ x: Int, _ y: Int) -> [UInt8] { Array(image.pixels[(y * 4 + x) * 4..<(y * 4 + x) * 4 + 4]) }
        // Bottom-up rows [[1,1,1,1],[2,2,3,3]]: the image's bottom row is index 1, its top row 2,2,3,3.
        #expect(Set((0..<4).map { color($0, 1) }).count == 1)
        #expect(color(0, 0) == color(1, 0) && color(2, 0) == color(3, 0) && color(0, 0) != color(2, 0))
        #expect(color(0, 0) != color(0, 1) && color(2, 0) != color(0, 1))
    }

    @Test func bmpTopDownAndBottomUpAgree() throws {
        guard ImageCorpus.directory != nil else { print(Corpora.missingMessage("image")); return }
        let bottomUp = try Image(decoding: ImageCorpus.bytes("generated/bmp-24bit-32x24.bmp"))
        let topDown = try Image(decoding: ImageCorpus.bytes("generated/bmp-24bit-top-down-32x24.bmp"))
        #expect(bottomUp.pixels == topDown.pixels)
    }

    /// The generated TIFFs hold the same picture as the 24-bit BMP, in four compressions, and the
    /// interlaced GIF the same as the plain one: three libraries and the Swift BMP reader agree.
    @Test func theSamePictureDecodesAlikeAcrossFormatsAndCompressions() throws {
        guard ImageCorpus.directory != nil else { print(Corpora.missingMessage("image")); return }
        let bmp = try Image(decoding: ImageCorpus.bytes("generated/bmp-24bit-32x24.bmp")).pixels
        for compression in ["uncompressed", "lzw", "deflate", "packbits"] {
            #expect(
                try Image(decoding: ImageCorpus.bytes("generated/tiff-rgb-\(compression).tif")).pixels == bmp,
                "\(compression)")
        }
        let interlaced = try Image(decoding: ImageCorpus.bytes("generated/gif-interlaced-32x32.gif"))
        #expect(try Image(decoding: ImageCorpus.bytes("generated/gif-static-32x32.gif")).pixels == interlaced.pixels)
        let transparent = try Image(decoding: ImageCorpus.bytes("generated/gif-transparent-32x32.gif")).pixels
        #expect(stride(from: 3, to: transparent.count, by: 4).filter { transparent[$0] == 0 }.count == 69)
    }

    @Test func aPNGNamedJPGIsReportedAsMislabelled() throws {
        guard ImageCorpus.directory != nil else { print(Corpora.missingMessage("image")); return }
        let bytes = try ImageCorpus.bytes("generated/png-content-named-jpg.jpg")
        #expect(ImageKind(sniffing: bytes) == .png)
        #expect { try ImageFormat().decode(bytes, as: "image/jpeg") } throws: { FormatError.matches($0, .mislabelled) }
        let accepted = try ImageFormat(options: .init(acceptsMislabelledBodies: true)).decode(bytes, as: "image/jpeg")
        #expect(
            accepted["mediaType"] == "image/png" && accepted["labelledAs"] == "image/jpeg" && accepted["width"] == 32)
    }

    @Test func jpegEXIFOrientationIsReportedNotApplied() throws {
        guard ImageCorpus.directory != nil else { print(Corpora.missingMessage("image")); return }
        let rotated = try ImageCorpus.bytes("generated/jpeg-exif-orientation-6.jpg")
        let image = try Image(decoding: rotated)
        #expect(image.info.orientation == 6 && image.width == 64 && image.height == 48)
        #expect(try ImageFormat().decode(rotated, as: "image/jpeg")["orientation"] == 6)
        #expect(try ImageInfo(reading: ImageCorpus.bytes("generated/jpeg-baseline-rgb-64x48.jpg")).orientation == 1)
    }

    @Test func animatedAndMultipageFilesCountTheirFrames() throws {
        guard ImageCorpus.directory != nil else { print(Corpora.missingMessage("image")); return }
        #expect(try ImageInfo(reading: ImageCorpus.bytes("generated/gif-animated-3-frames.gif")).frameCount == 3)
        #expect(try ImageInfo(reading: ImageCorpus.bytes("generated/webp-animated-2-frames.webp")).frameCount == 2)
        #expect(try ImageInfo(reading: ImageCorpus.bytes("generated/tiff-multipage-3.tif")).frameCount == 3)
        let limited = ImageLimits(maxFrames: 2)
        #expect { try ImageInfo(reading: ImageCorpus.bytes("generated/gif-animated-3-frames.gif"), limits: limited) }
            throws: { FormatError.matches($0, .limitExceeded) }
        #expect { try ImageInfo(reading: ImageCorpus.bytes("generated/tiff-multipage-3.tif"), limits: limited) }
            throws: { FormatError.matches($0, .limitExceeded) }
    }

    @Test func everyGeneratedSampleDecodesThroughTheFormatByItsExtension() throws {
        guard ImageCorpus.directory != nil else { print(Corpora.missingMessage("image")); return }
        let types = ["png": "image/png", "jpg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
                     "bmp": "image/bmp", "ico": "image/x-icon", "tif": "image/tiff"]
        for path in Self.files where ImageCorpus.entry(path).expect == "decode" && !path.contains("named") {
            let type = MediaType(types[String(path.split(separator: ".").last!)]!)!
            let value = try ImageFormat().decode(ImageCorpus.bytes(path), as: type)
            #expect(value["width"]?.integerValue != nil, "\(path)")
        }
    }
}
