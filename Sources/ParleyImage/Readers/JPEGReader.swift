internal import CParleyImageShims
import Parley

/// JPEG: the frame header (SOFn) parsed in Swift; pixels through libjpeg-turbo, with scans
/// bounded by the body (see ``allowedScans(_:info:limits:)``) and libjpeg's arrays by the budget.
enum JPEGReader: ImageReader {
    static func info(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws -> ImageInfo {
        let r = ByteReader(bytes)
        func fail(_ message: String, at offset: Int) -> FormatError {
            FormatError(.malformed, format: "jpeg", message, location: .init(byteOffset: offset))
        }
        var offset = 2, orientation = 1
        while true {
            guard r.has(2, at: offset) else { throw FormatError.truncatedHeader(.jpeg) }
            guard r.uint8(at: offset) == 0xFF else { throw fail("expected a marker", at: offset) }
            var marker = r.uint8(at: offset + 1)
            while marker == 0xFF {                                  // fill bytes
                offset += 1
                guard r.has(2, at: offset) else { throw FormatError.truncatedHeader(.jpeg) }
                marker = r.uint8(at: offset + 1)
            }
            offset += 2
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { continue }   // markers without a length
            if marker == 0xD9 || marker == 0xDA { throw fail("no frame header before the scan data", at: offset - 2) }
            guard r.has(2, at: offset) else { throw FormatError.truncatedHeader(.jpeg) }
            let length = Int(r.uint16BE(at: offset))
            guard length >= 2 else { throw fail("marker segment length \(length)", at: offset) }
            guard r.has(length, at: offset) else { throw FormatError.truncatedHeader(.jpeg) }
            if marker == 0xE1, length >= 16, r.uint32BE(at: offset + 2) == 0x4578_6966,
               r.uint16BE(at: offset + 6) == 0 {
                orientation = exifOrientation(ByteReader(r.slice(offset + 8, length - 8))) ?? orientation  // "Exif\0\0"
            }
            let isFrameHeader = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrameHeader {
                guard length >= 8 else { throw fail("short frame header", at: offset) }
                let precision = Int(r.uint8(at: offset + 2))
                let height = Int(r.uint16BE(at: offset + 3)), width = Int(r.uint16BE(at: offset + 5))
                let components = r.uint8(at: offset + 7)
                guard width > 0, height > 0 else { throw fail("invalid dimensions \(width)×\(height)", at: offset) }
                let color: ImageInfo.ColorType
                switch components {
                case 1: color = .gray
                case 3: color = .rgb
                case 4: color = .cmyk
                default: throw fail("\(components) color components", at: offset)
                }
                return ImageInfo(kind: .jpeg, width: width, height: height, colorType: color,
                                 bitDepth: precision, hasAlpha: false, orientation: orientation)
            }
            offset += length
        }
    }

    /// The Orientation tag (0x0112) of IFD0 in an EXIF TIFF structure, when it is 1…8.
    static func exifOrientation(_ tiff: ByteReader) -> Int? {
        let little = tiff.uint16BE(at: 0) == 0x4949                                    // "II"
        func u16(_ o: Int) -> Int { Int(little ? tiff.uint16LE(at: o) : tiff.uint16BE(at: o)) }
        func u32(_ o: Int) -> Int { Int(little ? tiff.uint32LE(at: o) : tiff.uint32BE(at: o)) }
        guard tiff.has(8, at: 0), u16(2) == 42 else { return nil }
        let ifd = u32(4)
        guard tiff.has(2, at: ifd) else { return nil }
        for i in 0..<u16(ifd) {
            let entry = ifd + 2 + 12 * i
            guard tiff.has(12, at: entry) else { return nil }
            if u16(entry) == 0x0112, u16(entry + 2) == 3 {                             // SHORT
                let value = u16(entry + 8)
                return (1...8).contains(value) ? value : nil
            }
        }
        return nil
    }

    static func decodePixels(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                             budget: ImageBudget, into out: UnsafeMutableRawBufferPointer) throws {
        let scans = allowedScans(bytes, info: info, limits: limits)
        try ShimStatus.check(.jpeg, limit: ("maxProgressiveScans", scans), budget: budget) { message in
            parley_jpeg_decode_rgba(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                                    out.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                    UInt32(info.width), UInt32(info.height), Int32(clamping: scans),
                                    budget.remaining, message)
        }
    }
}
