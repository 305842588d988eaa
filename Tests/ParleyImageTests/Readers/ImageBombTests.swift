import Parley
import ParleyImage
import ParleyTestKit
import Testing

/// The bombs in `../shared/corpora/image/bombs` fail from their headers, before any pixel
/// buffer is allocated: a limit error (or `malformed` for impossible headers), on both paths.
@Suite struct ImageBombTests {
    static let files = ImageCorpus.paths(under: "bombs")

    @Test func corpusIsPresentOrSkippedVisibly() {
        if ImageCorpus.directory == nil {
            print(Corpora.missingMessage("image"))
        } else {
            #expect(Self.files.count == 8)
        }
    }

    @Test(arguments: files)
    func failsFromTheHeader(_ path: String) throws {
        let bytes = try ImageCorpus.bytes(path)
        let expected: FormatError.Code = ImageCorpus.entry(path).expect == "reject" ? .malformed : .limitExceeded
        #expect { try ImageInfo(reading: bytes) } throws: { FormatError.matches($0, expected) }
        #expect { try Image(decoding: bytes) } throws: { FormatError.matches($0, expected) }
        #expect { try ImageFormat().decode(bytes, as: ImageKind(sniffing: bytes)!.mediaType) }
            throws: { FormatError.matches($0, expected) }
    }

    @Test func theLimitThatStoppedItIsNamed() throws {
        guard ImageCorpus.directory != nil else { print(Corpora.missingMessage("image")); return }
        let bomb = try ImageCorpus.bytes("bombs/png-32768x32768-1bit-decompression-bomb.png")
        #expect { try Image(decoding: bomb) } throws: { error in
            (error as? FormatError)?.limit
                == FormatError.Limit(name: "maxPixels", maximum: 64_000_000, actual: 32768 * 32768)
        }
        // Raising maxPixels alone is not enough: the RGBA8 buffer (4 GiB) is over maxDecompressedBytes.
        let raised = ImageLimits(DecodingLimits(maxPixels: 2_000_000_000))
        #expect { try Image(decoding: bomb, limits: raised) } throws: {
            ($0 as? FormatError)?.limit?.name == "maxDecompressedBytes"
        }
    }

    @Test func limitsApplyToGeneratedImagesToo() throws {
        let png = try Image(width: 100, height: 10, rgba: testPattern(width: 100, height: 10, alpha: false)).encoded(
            as: .png)
        #expect { try Image(decoding: png, limits: ImageLimits(DecodingLimits(maxPixels: 999))) }
            throws: { ($0 as? FormatError)?.limit?.name == "maxPixels" }
        #expect { try Image(decoding: png, limits: ImageLimits(maxDimension: 99)) }
            throws: { ($0 as? FormatError)?.limit?.name == "maxDimension" }
        #expect { try Image(decoding: png, limits: ImageLimits(DecodingLimits(maxBodyBytes: png.count - 1))) }
            throws: { ($0 as? FormatError)?.limit?.name == "maxBodyBytes" }
        #expect(try Image(decoding: png, limits: ImageLimits(DecodingLimits(maxPixels: 1000))).width == 100)
    }

    @Test func progressiveJPEGScansAreBounded() throws {
        guard ImageCorpus.directory != nil else { print(Corpora.missingMessage("image")); return }
        let progressive = try ImageCorpus.bytes("generated/jpeg-progressive-64x48.jpg")
        #expect(try Image(decoding: progressive).width == 64)
        #expect { try Image(decoding: progressive, limits: ImageLimits(maxProgressiveScans: 2)) }
            throws: { ($0 as? FormatError)?.limit?.name == "maxProgressiveScans" }
    }
}
