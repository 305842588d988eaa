import Parley
import ParleyImage
import ParleyTestKit
import Testing

@Suite struct ImageFormatTests {
    let format = ImageFormat()

    static let samples: [Value] = [
        ["width": 2, "height": 2, "pixels": .bytes([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 9, 9, 128])],
        ["width": 17, "height": 5, "pixels": .bytes(testPattern(width: 17, height: 5, alpha: false))],
    ]

    @Test func conformsToTheKit() {
        let sameSize: @Sendable (Value, Value) -> Bool = { original, decoded in
            original["width"] == decoded["width"] && original["height"] == decoded["height"]
        }
        FormatConformance.expectConformance(of: format, options: .init(
            samples: Self.samples, equivalent: sameSize,
            malformedInputs: [Array("GIF88a".utf8) + [UInt8](repeating: 0, count: 20), Array("<svg/>".utf8)],
            checksDepth: false))
    }

    @Test func declaresEveryImageTypeAndEncodesPNGAndJPEG() {
        let declared = Set(format.decodableMediaTypes.map(\.description))
        for type in ["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/x-bmp", "image/x-ms-bmp",
                     "image/vnd.microsoft.icon", "image/x-icon", "image/ico", "image/tiff", "image/x-win-bitmap",
                     "image/x-xbitmap"] {
            #expect(declared.contains(type), "\(type)")
        }
        #expect(format.encodableMediaTypes == ["image/png", "image/jpeg"])
    }

    @Test func decodesToTheDocumentedMetadataObject() throws {
        let png = try Image(width: 3, height: 2, rgba: testPattern(width: 3, height: 2, alpha: true)).encoded(as: .png)
        let value = try format.decode(png, as: "image/png")
        #expect(value == ["mediaType": "image/png", "format": "png", "width": 3, "height": 2, "colorType": "rgba",
                          "bitDepth": 8, "hasAlpha": true, "frameCount": 1])
        #expect(value.objectValue?.keys == ["mediaType", "format", "width", "height", "colorType", "bitDepth",
                                            "hasAlpha", "frameCount"])
    }

    @Test func pixelsRoundTripThroughTheValueTree() throws {
        let rgba = testPattern(width: 9, height: 4, alpha: true)
        let withPixels = ImageFormat(options: .init(includesPixels: true))
        let png = try withPixels.encode(["width": 9, "height": 4, "pixels": .bytes(rgba)], as: "image/png")
        let decoded = try withPixels.decode(png, as: "image/png")
        #expect(decoded["pixels"] == .bytes(rgba))
        #expect(try withPixels.encode(decoded, as: "image/png") == png)
    }

    @Test func pngRoundTripIsExactAndOpaqueImagesAreWrittenAsRGB() throws {
        for alpha in [true, false] {
            let rgba = testPattern(width: 31, height: 7, alpha: alpha)
            let png = try Image(width: 31, height: 7, rgba: rgba).encoded(as: .png)
            let image = try Image(decoding: png)
            #expect(image.pixels == rgba)
            #expect(image.info.colorType == (alpha ? .rgba : .rgb))
            #expect(png[25] == (alpha ? 6 : 2))   // IHDR color type byte
        }
    }

    @Test func jpegRoundTripStaysClose() throws {
        let rgba = testPattern(width: 64, height: 48, alpha: false)
        let jpeg = try Image(width: 64, height: 48, rgba: rgba).encoded(as: .jpeg, quality: 95)
        #expect(Array(jpeg.prefix(3)) == [0xFF, 0xD8, 0xFF])
        let image = try Image(decoding: jpeg)
        #expect(
            image.info == ImageInfo(kind: .jpeg, width: 64, height: 48, colorType: .rgb, bitDepth: 8, hasAlpha: false))
        var worst = 0
        for i in 0..<rgba.count { worst = max(worst, abs(Int(rgba[i]) - Int(image.pixels[i]))) }
        #expect(worst <= 12, "largest channel difference \(worst)")
        #expect(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 })
    }

    @Test func jpegQualityComesFromTheValueOrTheOptions() throws {
        let rgba = testPattern(width: 64, height: 64, alpha: false)
        let low = try format.encode(
            ["width": 64, "height": 64, "pixels": .bytes(rgba), "quality": 10], as: "image/jpeg")
        let high = try format.encode(["width": 64, "height": 64, "pixels": .bytes(rgba)], as: "image/jpeg")
        #expect(low.count < high.count)
    }

    @Test func encodingRejectsValuesThatAreNotImagesAndTypesItDoesNotWrite() {
        #expect { try format.encode(["width": 2, "height": 2, "pixels": .bytes([1, 2, 3])], as: "image/png") }
            throws: { FormatError.matches($0, .unsupportedValue) }
        #expect { try format.encode(["name": "Ada"], as: "image/png") } throws: {
            FormatError.matches($0, .unsupportedValue)
        }
        #expect { try format.encode(Self.samples[0], as: "image/gif") } throws: {
            FormatError.matches($0, .unsupportedMediaType)
        }
    }

    @Test func headerVerificationSkipsCorruptPixelDataButPixelVerificationCatchesIt() throws {
        var png = try Image(width: 16, height: 16, rgba: testPattern(width: 16, height: 16, alpha: false)).encoded(
            as: .png)
        png[png.count - 20] ^= 0xFF        // inside the IDAT data: its CRC no longer matches
        let headerOnly = ImageFormat(options: .init(verification: .header))
        #expect(try headerOnly.decode(png, as: "image/png")["width"] == 16)
        #expect { try format.decode(png, as: "image/png") } throws: { FormatError.matches($0, .malformed) }
    }

    @Test func theRegistryRoutesImageTypesToTheFormat() throws {
        let registry = Registry(formats: [format])
        let png = try Image(width: 1, height: 1, rgba: [1, 2, 3, 255]).encoded(as: .png)
        #expect(try registry.decode(png, contentType: "image/x-png")["format"] == "png")
        #expect(registry.encoder(forAccept: "image/webp, image/png;q=0.9")?.mediaType == "image/png")
    }
}
