import Parley
import ParleyImage
import ParleyTestKit
import Testing

/// PngSuite (`../shared/corpora/image/pngsuite`): every valid file decodes with the dimensions
/// its name and the manifest give; every `x*` file is rejected with a typed error.
@Suite struct PngSuiteTests {
    static let files = ImageCorpus.paths(under: "pngsuite")

    @Test func corpusIsPresentOrSkippedVisibly() {
        if ImageCorpus.directory == nil {
            print(Corpora.missingMessage("image"))
        } else {
            #expect(Self.files.count == 175)
        }
    }

    /// PngSuite's naming: `sNN…` files are NN×NN; the pHYs files `cdf`, `cdh`, `cds` are 8×32,
    /// 32×8 and 8×8; every other file is 32×32.
    static func dimensionsFromName(_ path: String) -> (width: Int, height: Int) {
        let name = String(path.split(separator: "/").last!)
        let chars = Array(name)
        if chars.first == "s", let size = Int(String(chars[1...2])) { return (size, size) }
        if name.hasPrefix("cdf") { return (8, 32) }
        if name.hasPrefix("cdh") { return (32, 8) }
        if name.hasPrefix("cds") { return (8, 8) }
        return (32, 32)
    }

    @Test(arguments: files.filter { !$0.hasPrefix("pngsuite/x") })
    func decodesWithTheRightDimensions(_ path: String) throws {
        let entry = ImageCorpus.entry(path)
        let bytes = try ImageCorpus.bytes(path)
        let image = try Image(decoding: bytes)
        let size = Self.dimensionsFromName(path)
        #expect(image.width == size.width && image.height == size.height)
        #expect(image.width == entry.width && image.height == entry.height)
        #expect(image.info.bitDepth == entry.bit_depth)
        let colorTypes = [0: "gray", 2: "rgb", 3: "palette", 4: "grayAlpha", 6: "rgba"]
        #expect(image.info.colorType.rawValue == colorTypes[entry.color_type ?? -1])
        #expect(image.pixels.count == size.width * size.height * 4)
        #expect(try ImageInfo(reading: bytes) == image.info)
    }

    @Test(arguments: files.filter { $0.hasPrefix("pngsuite/x") })
    func rejectsCorruptFilesWithATypedError(_ path: String) throws {
        let bytes = try ImageCorpus.bytes(path)
        #expect { try Image(decoding: bytes) } throws: { error in
            guard let error = error as? FormatError else { return false }
            return [.malformed, .truncated].contains(error.code)
        }
        #expect { try ImageFormat().decode(bytes, as: "image/png") } throws: { $0 is FormatError }
    }

    @Test func transparencyAndGrayExpandAsPNGSays() throws {
        guard ImageCorpus.directory != nil else { print(Corpora.missingMessage("image")); return }
        // tbrn2c08: RGB with a tRNS colour; basn0g01: 1-bit gray (black and white only).
        let transparent = try Image(decoding: ImageCorpus.bytes("pngsuite/tbrn2c08.png"))
        #expect(transparent.info.hasAlpha)
        #expect(stride(from: 3, to: transparent.pixels.count, by: 4).contains { transparent.pixels[$0] == 0 })
        let gray = try Image(decoding: ImageCorpus.bytes("pngsuite/basn0g01.png"))
        for i in stride(from: 0, to: gray.pixels.count, by: 4) {
            let p = gray.pixels[i]
            #expect(
                (p == 0 || p == 255) && gray.pixels[i + 1] == p && gray.pixels[i + 2] == p && gray.pixels[i + 3] == 255)
        }
    }
}
