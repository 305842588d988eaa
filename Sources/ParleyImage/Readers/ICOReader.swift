import Parley

/// ICO and CUR: a directory of PNG or DIB entries, read in Swift; the largest entry (then the
/// deepest) is the one described and decoded.
enum ICOReader: ImageReader {
    /// The chosen entry's bytes, and whether they are a PNG.
    static func largestEntry(
        _ bytes: UnsafeRawBufferPointer, limits: ImageLimits
    ) throws -> (entry: UnsafeRawBufferPointer, isPNG: Bool, count: Int) {
        let r = ByteReader(bytes)
        guard r.has(6, at: 0) else { throw FormatError.truncatedHeader(.ico) }
        let count = Int(r.uint16LE(at: 4))
        guard count > 0 else { throw FormatError(.malformed, format: "ico", "the icon directory is empty") }
        if count > limits.maxFrames {
            throw FormatError.limitExceeded(format: "ico", limit: "maxFrames", maximum: limits.maxFrames, actual: count)
        }
        guard r.has(16 * count, at: 6) else { throw FormatError.truncatedHeader(.ico) }
        var best: (score: (Int, Int), offset: Int, size: Int)?
        for i in 0..<count {
            let e = 6 + 16 * i
            let width = Int(r.uint8(at: e)) == 0 ? 256 : Int(r.uint8(at: e))
            let height = Int(r.uint8(at: e + 1)) == 0 ? 256 : Int(r.uint8(at: e + 1))
            let bits = Int(r.uint16LE(at: e + 6))
            let size = Int(r.uint32LE(at: e + 8)), offset = Int(r.uint32LE(at: e + 12))
            guard r.has(size, at: offset), size > 0 else {
                throw FormatError(.truncated, format: "ico", "icon entry \(i) lies outside the file")
            }
            let score = (width * height, bits)
            if best == nil || score > best!.score { best = (score, offset, size) }
        }
        let entry = r.slice(best!.offset, best!.size)
        let isPNG = ImageKind.sniff(entry) == .png
        return (entry, isPNG, count)
    }

    static func info(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws -> ImageInfo {
        let (entry, isPNG, count) = try largestEntry(bytes, limits: limits)
        var info: ImageInfo
        if isPNG {
            info = try PNGReader.info(entry, limits: limits)
        } else {
            let dib = try DIB.parse(ByteReader(entry), headerOffset: 0, pixelOffset: nil, isIcon: true, format: "ico")
            info = ImageInfo(kind: .ico, width: dib.width, height: dib.height, colorType: .rgba,
                             bitDepth: dib.bitDepth, hasAlpha: true)
        }
        info.kind = .ico
        info.frameCount = count
        return info
    }

    /// A PNG entry reserves what libpng holds; a DIB entry needs nothing besides the pixels.
    static func reserve(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                        budget: inout ImageBudget) throws {
        let (entry, isPNG, _) = try largestEntry(bytes, limits: limits)
        if isPNG { try PNGReader.reserve(entry, info: info, limits: limits, budget: &budget) }
    }

    static func decodePixels(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                             budget: ImageBudget, into out: UnsafeMutableRawBufferPointer) throws {
        let (entry, isPNG, _) = try largestEntry(bytes, limits: limits)
        if isPNG {
            try PNGReader.decodePixels(entry, info: info, limits: limits, budget: budget, into: out)
        } else {
            let r = ByteReader(entry)
            try DIB.parse(r, headerOffset: 0, pixelOffset: nil, isIcon: true, format: "ico").decode(
                r, into: out, format: "ico")
        }
    }
}
