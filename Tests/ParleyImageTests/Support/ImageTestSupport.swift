import Foundation
import Parley
import ParleyImage
import ParleyTestKit

/// The shared image corpus and its manifest.
enum ImageCorpus {
    static let directory = Corpora.directory("image")

    /// One manifest entry (the fields the tests use).
    struct Entry: Decodable, Sendable {
        var expect: String
        var format: String?
        var width: Int?
        var height: Int?
        var bit_depth: Int?
        var color_type: Int?
        var mode: String?
        var bits: Int?
        var frames: Int?
        var sizes: [[Int]]?
        var transparency_index: Int?
    }

    struct Manifest: Decodable { var files: [String: Entry] }

    /// The manifest's `files` object, keyed by path under the corpus folder.
    static let manifest: [String: Entry] = {
        guard let directory,
            let data = FileManager.default.contents(atPath: directory.appendingPathComponent("manifest.json").path),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return [:] }
        return manifest.files
    }()

    static func paths(under folder: String) -> [String] {
        manifest.keys.filter { $0.hasPrefix(folder + "/") }.sorted()
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: directory!.appendingPathComponent(path)))
    }

    static func entry(_ path: String) -> Entry { manifest[path]! }
}

/// A deterministic RGBA8 test pattern: gradients with a varying alpha when `alpha` is set.
func testPattern(width: Int, height: Int, alpha: Bool) -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let o = (y * width + x) * 4
            pixels[o] = UInt8(x * 255 / max(1, width - 1))
            pixels[o + 1] = UInt8(y * 255 / max(1, height - 1))
            pixels[o + 2] = UInt8((x + y) % 256)
            pixels[o + 3] = alpha ? UInt8((x * 7 + y * 3) % 256) : 255
        }
    }
    return pixels
}

extension FormatError {
    /// Whether `error` is a FormatError with `code`.
    static func matches(_ error: any Error, _ code: FormatError.Code) -> Bool {
        (error as? FormatError)?.code == code
    }
}
