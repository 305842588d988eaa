import Foundation
import Parley
import ParleyImage
import ParleyTestKit
import Testing

/// Pixel-exact agreement with an independent decoder: Pillow's RGBA8 output for every decodable
/// sample in the corpus (PNG, JPEG, GIF, WebP, TIFF, BMP, ICO), written by
/// `Tests/ParleyImageTests/Pillow/pillow_rgba_reference.py` into the folder `PARLEY_PILLOW_RGBA` names.
/// Outside CI it is skipped visibly without them (Pillow is not a test dependency); with `CI=true`
/// missing references are a failure: `.ci/run` installs Pillow and writes them before `make test`.
/// Without the image corpus (no `../shared`) it is skipped.
@Suite struct PillowAgreementTests {
    static let referenceFolder = ProcessInfo.processInfo.environment["PARLEY_PILLOW_RGBA"]
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Where Pillow is wrong: in tbbn0g04 (4-bit gray, tRNS gray 15) Pillow scales the samples to
    /// 0…255 but keeps the tRNS value at 15, so the 464 white pixels (15 → 255) stay opaque.
    /// PNG says a tRNS gray value is in the image's bit depth; libpng makes them transparent.
    /// Only those alpha bytes may differ.
    static let pillowBugs: Set<String> = ["pngsuite/tbbn0g04.png"]

    /// Whether every difference is a white pixel that Parley made transparent and Pillow did not.
    static func onlyTransparentWhiteDiffers(_ ours: [UInt8], _ pillow: [UInt8]) -> Bool {
        guard ours.count == pillow.count else { return false }
        for i in stride(from: 0, to: ours.count, by: 4) where ours[i..<i + 4] != pillow[i..<i + 4] {
            if ours[i..<i + 3] != pillow[i..<i + 3] || ours[i..<i + 3] != [255, 255, 255] || ours[i + 3] != 0
                || pillow[i + 3] != 255 {
                return false
            }
        }
        return true
    }

    @Test func agreesWithPillowPixelForPixel() throws {
        guard ImageCorpus.directory != nil else { return print(Corpora.missingMessage("image")) }
        guard let folder = Self.referenceFolder else {
            let message = "Pillow references not found (set PARLEY_PILLOW_RGBA, see "
                + "Tests/ParleyImageTests/Pillow/pillow_rgba_reference.py)"
            if Self.isCI {
                Issue.record("\(message): CI=true, so the agreement check must run")
            } else {
                print("\(message): skipped")
            }
            return
        }
        let references = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".rgba") }
            .sorted()
        // One reference per sample the manifest expects to decode, or part of the corpus goes unchecked.
        let decodable = ImageCorpus.manifest.filter { $0.value.expect == "decode" }.keys
        #expect(references.count == decodable.count,
                "\(references.count) Pillow references in \(folder) for \(decodable.count) decodable samples")
        var exact = 0, differing: [String] = []
        for reference in references {
            let path = String(reference.dropLast(5)).replacingOccurrences(of: "__", with: "/")
            let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(reference)))
            let image = try Image(decoding: ImageCorpus.bytes(path))
            if image.pixels == expected {
                exact += 1
            } else if Self.pillowBugs.contains(path) {
                #expect(Self.onlyTransparentWhiteDiffers(image.pixels, expected), "\(path)")
                print("  known Pillow divergence: \(path) (tRNS not scaled for 4-bit gray)")
            } else {
                let count = min(expected.count, image.pixels.count)
                var worst = 0, bytes = 0
                for i in 0..<count where expected[i] != image.pixels[i] {
                    bytes += 1
                    worst = max(worst, abs(Int(expected[i]) - Int(image.pixels[i])))
                }
                differing.append("\(path): \(bytes) of \(expected.count) bytes differ, by at most \(worst)")
            }
        }
        print("Pillow agreement: \(exact) of \(references.count) samples pixel-exact")
        for line in differing { print("  differs: \(line)") }
        #expect(differing.isEmpty)
    }
}
