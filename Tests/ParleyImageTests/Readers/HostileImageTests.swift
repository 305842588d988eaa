import Parley
import ParleyImage
import ParleyTestKit
import Testing

/// Issue #22's image rows: every hostile input gives a typed error or a correct decode, within
/// two seconds, with what the decoder holds counted against `maxDecompressedBytes` first. The
/// inputs come from ``HostileImages``; the row numbers are in the test names' comments.
@Suite struct HostileImageTests {
    static let timeBudget = Duration.seconds(2)

    static func limitName(_ error: any Error) -> String? { (error as? FormatError)?.limit?.name }

    // MARK: Row 3: TIFF tags

    /// Row 3: 512 unknown tags pointing at one 4 MiB blob declare 2 GiB of values.
    @Test func tiffTagsSharingOneBlobAreRefusedBeforeLibtiffReadsThem() {
        let tiff = HostileImages.tiffWithSharedTagBlob(tags: 512, blobBytes: 4 << 20)
        let elapsed = ContinuousClock().measure {
            #expect { try ImageInfo(reading: tiff) } throws: { Self.limitName($0) == "maxDecompressedBytes" }
            #expect { try Image(decoding: tiff) } throws: { Self.limitName($0) == "maxDecompressedBytes" }
        }
        #expect(elapsed < Self.timeBudget)
    }

    @Test func tiffTagValuesCountAgainstTheBudget() throws {
        let tiff = HostileImages.tiffWithSharedTagBlob(tags: 4, blobBytes: 1024)
        #expect(try Image(decoding: tiff).pixels == [0x80, 0x80, 0x80, 255])
        let small = ImageLimits(DecodingLimits(maxDecompressedBytes: 4096))
        #expect { try Image(decoding: tiff, limits: small) } throws: { Self.limitName($0) == "maxDecompressedBytes" }
    }

    @Test func countingPagesChargesEveryDirectorysTagValues() throws {
        let tiff = HostileImages.tiffWithSharedTagBlob(tags: 1, blobBytes: 1024, pages: 3)   // about 1 KiB a directory
        #expect(
            try ImageInfo(reading: tiff, limits: ImageLimits(DecodingLimits(maxDecompressedBytes: 8192))).frameCount
                == 3)
        #expect { try ImageInfo(reading: tiff, limits: ImageLimits(DecodingLimits(maxDecompressedBytes: 2048))) }
            throws: { Self.limitName($0) == "maxDecompressedBytes" }
    }

    /// Only TIFF can declare dimensions whose product overflows, and libtiff 4.5 refuses them
    /// first ("Integer overflow"); `ImageLimits.check` multiplies with overflow checks anyway.
    @Test func dimensionsWhoseProductOverflowsGiveATypedError() {
        let tiff = HostileImages.tiffDeclaring(width: .max, height: .max)
        let raised = ImageLimits(DecodingLimits(maxPixels: .max, maxDecompressedBytes: .max), maxDimension: .max)
        #expect { try ImageInfo(reading: tiff, limits: raised) } throws: { $0 is FormatError }
        #expect { try Image(decoding: tiff, limits: raised) } throws: { $0 is FormatError }
    }

    // MARK: Row 4: PNG text chunks

    /// Row 4: 100 zTXt chunks inflating to 8 MB each, alone and inside an icon.
    @Test(arguments: [false, true])
    func pngTextChunksAreSkippedNotInflated(insideIcon: Bool) throws {
        let png = HostileImages.pngWithTextBombs(chunks: 100)
        let bytes = insideIcon ? HostileImages.icoHolding(png) : png
        var image: Image?
        let elapsed = try ContinuousClock().measure { image = try Image(decoding: bytes) }
        #expect(image?.pixels == [10, 20, 30, 40])
        #expect(image?.info.kind == (insideIcon ? .ico : .png))
        #expect(elapsed < Self.timeBudget)
    }

    @Test func libpngRowBuffersCountAgainstTheBudget() throws {
        let png = try Image(width: 64, height: 1, rgba: testPattern(width: 64, height: 1, alpha: true)).encoded(
            as: .png)
        #expect { try Image(decoding: png, limits: ImageLimits(DecodingLimits(maxDecompressedBytes: 64 * 4 + 1024))) }
            throws: { Self.limitName($0) == "maxDecompressedBytes" }
        #expect(
            try Image(decoding: png, limits: ImageLimits(DecodingLimits(maxDecompressedBytes: 1 << 20))).width == 64)
    }

    // MARK: Row 9: JPEG scans

    /// Row 9: 8000×8000 progressive, 999 scans in 10 KB.
    @Test func progressiveJPEGWithEmptyScansIsRefusedBeforeAllocating() {
        let jpeg = HostileImages.progressiveJPEGWithEmptyScans(width: 8000, height: 8000, scans: 999)
        let elapsed = ContinuousClock().measure {
            #expect { try Image(decoding: jpeg) } throws: { FormatError.matches($0, .truncated) }
        }
        #expect(elapsed < Self.timeBudget)
    }

    @Test func emptyScansStopTheDecodeAtTheFirstOne() {
        let jpeg = HostileImages.progressiveJPEGWithEmptyScans(width: 256, height: 256, scans: 999)
        let elapsed = ContinuousClock().measure {
            #expect { try Image(decoding: jpeg) } throws: { FormatError.matches($0, .truncated) }
        }
        #expect(elapsed < Self.timeBudget)
    }

    @Test func scansAreBoundedByImageSizeAndBody() throws {
        let normal = try Image(decoding: HostileImages.progressiveJPEGWithMinimalScans(scans: 10))
        #expect(normal.width == 1024 && normal.pixels.count == 1024 * 1024 * 4)
        #expect(normal.pixels.prefix(4) == [128, 128, 128, 255])
        // 999 scans in 14 KB: 16 free scans plus one per 256 bytes (1024² / 4096) of scan data.
        let many = HostileImages.progressiveJPEGWithMinimalScans(scans: 999)
        let elapsed = ContinuousClock().measure {
            #expect { try Image(decoding: many) } throws: { error in
                (error as? FormatError)?.limit?.name == "maxProgressiveScans"
                    && (error as? FormatError)!.limit!.maximum < 100
            }
        }
        #expect(elapsed < Self.timeBudget)
    }

    @Test func libjpegCoefficientArraysCountAgainstTheBudget() throws {
        let jpeg = HostileImages.progressiveJPEGWithMinimalScans(scans: 10)   // 4 MiB of pixels, 2 MiB of coefficients
        #expect { try Image(decoding: jpeg, limits: ImageLimits(DecodingLimits(maxDecompressedBytes: 5 << 20))) }
            throws: { Self.limitName($0) == "maxDecompressedBytes" }
        #expect(
            try Image(decoding: jpeg, limits: ImageLimits(DecodingLimits(maxDecompressedBytes: 7 << 20))).width == 1024)
    }

    // MARK: Row 10: JPEG without entropy data

    /// Row 10: a frame of 8000×8000, a scan header, EOI, in 120-odd bytes.
    @Test func jpegWithoutEntropyDataIsRefusedBeforeAllocating() {
        let jpeg = HostileImages.jpegWithoutEntropyData(width: 8000, height: 8000)
        let elapsed = ContinuousClock().measure {
            #expect { try Image(decoding: jpeg) } throws: { FormatError.matches($0, .truncated) }
            #expect { try ImageFormat().decode(jpeg, as: "image/jpeg") } throws: { FormatError.matches($0, .truncated) }
        }
        #expect(elapsed < Self.timeBudget)
    }

    @Test func smallJPEGWithoutEntropyDataIsTruncatedByLibjpeg() {
        let jpeg = HostileImages.jpegWithoutEntropyData(width: 64, height: 64)
        #expect { try Image(decoding: jpeg) } throws: { FormatError.matches($0, .truncated) }
    }

    // MARK: Row 13: BMP RLE

    /// Row 13: runs of 255 pixels on a 1-pixel row (1 MB here, 127 million steps before the fix;
    /// 60 MB in the issue).
    @Test func rleRunsPastTheRowEndTakeOneStep() throws {
        let bmp = HostileImages.rleBMPWithLongRuns(width: 1, runs: 500_000)
        var image: Image?
        let elapsed = try ContinuousClock().measure { image = try Image(decoding: bmp) }
        #expect(image?.pixels == [255, 0, 0, 255])
        #expect(elapsed < Self.timeBudget)
    }

    @Test func rleRunsAndDeltasLandWhereTheyShould() throws {
        // Bottom row: 3 red, end of line. Top row: 2 green, then a run of 8 red that only has room for 2.
        let bmp = HostileImages.rleBMP(width: 4, height: 2, data: [3, 1, 0, 0, 2, 2, 8, 1, 0, 1])
        let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], black: [UInt8] = [0, 0, 0, 255]
        #expect(try Image(decoding: bmp).pixels == green + green + red + red + red + red + red + black)
    }

    // MARK: libwebp

    @Test func libwebpBuffersCountAgainstTheBudget() throws {
        guard ImageCorpus.directory != nil else { print(Corpora.missingMessage("image")); return }
        let pixels = 64 * 48 * 4
        let lossless = try ImageCorpus.bytes("generated/webp-lossless-64x48.webp")
        let lossy = try ImageCorpus.bytes("generated/webp-lossy-64x48.webp")
        let tight = ImageLimits(DecodingLimits(maxDecompressedBytes: pixels + 1024))
        #expect { try Image(decoding: lossless, limits: tight) } throws: {
            Self.limitName($0) == "maxDecompressedBytes"
        }
        #expect(try Image(decoding: lossy, limits: tight).width == 64)
        #expect(
            try Image(decoding: lossless, limits: ImageLimits(DecodingLimits(maxDecompressedBytes: 2 * pixels))).width
                == 64)
        let animated = try ImageCorpus.bytes("generated/webp-animated-2-frames.webp")
        let info = try ImageInfo(reading: animated)
        let canvas = info.width * info.height * 4
        #expect {
            try Image(decoding: animated, limits: ImageLimits(DecodingLimits(maxDecompressedBytes: 4 * canvas - 1)))
        }
            throws: { Self.limitName($0) == "maxDecompressedBytes" }
        #expect(
            try Image(decoding: animated, limits: ImageLimits(DecodingLimits(maxDecompressedBytes: 4 * canvas))).width
                == info.width)
    }

    // MARK: Encoding

    @Test(arguments: [ImageKind.png, .jpeg])
    func encodingRefusesPixelsThatDoNotMatchTheSize(kind: ImageKind) {
        let info = ImageInfo(kind: .png, width: 100, height: 100, colorType: .rgba, bitDepth: 8, hasAlpha: true)
        #expect { try Image(info: info, pixels: [1, 2, 3, 4]).encoded(as: kind) }
            throws: { FormatError.matches($0, .unsupportedValue) }
        var negative = info
        negative.width = -1
        #expect { try Image(info: negative, pixels: []).encoded(as: kind) } throws: {
            FormatError.matches($0, .unsupportedValue)
        }
    }
}
