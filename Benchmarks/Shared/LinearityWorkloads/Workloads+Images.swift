import BenchmarkInputs
import ParleyImage

// Images: PNG with many chunks (ancillary text chunks before the pixels, the pixels split into
// many IDAT chunks) and BMP with many rows, uncompressed and run-length coded.

let imageWorkloads: [Workload] = [
    Workload("png.header-text-chunks", unit: "chunks", count: 500) { n in
        let bytes = PNGBuilder(width: 8, height: 8).bytes(textChunks: n, pixelChunks: 1)
        return { keep(try ImageInfo(reading: bytes)) }
    },
    Workload("png.decode-text-chunks", unit: "chunks", count: 500) { n in
        let bytes = PNGBuilder(width: 8, height: 8).bytes(textChunks: n, pixelChunks: 1)
        return { keep(try Image(decoding: bytes).pixels.count) }
    },
    Workload("png.decode-idat-chunks", unit: "chunks (rows)", count: 500) { n in
        let bytes = PNGBuilder(width: 16, height: n).bytes(textChunks: 0, pixelChunks: n)
        return { keep(try Image(decoding: bytes).pixels.count) }
    },
    Workload("bmp.decode-rows", unit: "rows", count: 500) { n in
        let bytes = bmp(width: 16, height: n, runLengthCoded: false)
        return { keep(try Image(decoding: bytes).pixels.count) }
    },
    Workload("bmp.decode-rle8-rows", unit: "rows", count: 500) { n in
        let bytes = bmp(width: 16, height: n, runLengthCoded: true)
        return { keep(try Image(decoding: bytes).pixels.count) }
    },
]

/// Builds PNG files from a picture encoded by ParleyImage, re-chunked: text chunks before the
/// pixels, the compressed pixels split into several IDAT chunks.
struct PNGBuilder {
    let header: [UInt8]       // IHDR's data
    let compressed: [UInt8]   // every IDAT's data, in order

    init(width: Int, height: Int) {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var generator = SeededGenerator(seed: 22)
        for index in pixels.indices where index % 4 != 3 { pixels[index] = UInt8(truncatingIfNeeded: generator.next()) }
        let png = try! Image(width: width, height: height, rgba: pixels).encoded(as: .png)
        var header: [UInt8] = []
        var compressed: [UInt8] = []
        var offset = 8
        while offset + 8 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8
                | Int(png[offset + 3])
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            let data = Array(png[offset + 8..<offset + 8 + length])
            if type == "IHDR" { header = data }
            if type == "IDAT" { compressed += data }
            offset += 12 + length
        }
        self.header = header
        self.compressed = compressed
    }

    func bytes(textChunks: Int, pixelChunks: Int) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        Self.append("IHDR", header, to: &out)
        for index in 0..<textChunks { Self.append("tEXt", Array("Comment\u{0}note \(index)".utf8), to: &out) }
        let size = max(1, compressed.count / max(1, pixelChunks))
        var start = 0
        for index in 0..<pixelChunks {
            let end = index == pixelChunks - 1 ? compressed.count : min(compressed.count, start + size)
            Self.append("IDAT", Array(compressed[start..<end]), to: &out)
            start = end
        }
        Self.append("IEND", [], to: &out)
        return out
    }

    static func append(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let typeAndData = Array(type.utf8) + data
        out += bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc32(typeAndData))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// A bottom-up BMP of `width`×`height`: 24 bits per pixel, or 8-bit palette indices coded as
/// RLE8 (one run and an end of line per row).
func bmp(width: Int, height: Int, runLengthCoded: Bool) -> [UInt8] {
    func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
    var pixels: [UInt8] = []
    var palette: [UInt8] = []
    if runLengthCoded {
        for index in 0..<256 { palette += [UInt8(index), UInt8(255 - index), UInt8(index / 2), 0] }
        for row in 0..<height { pixels += [UInt8(width), UInt8(row % 256), 0, 0] }
        pixels += [0, 1]
    } else {
        let rowBytes = (width * 3 + 3) / 4 * 4
        for row in 0..<height {
            var line = [UInt8](repeating: 0, count: rowBytes)
            for x in 0..<width * 3 { line[x] = UInt8(truncatingIfNeeded: row &* 7 &+ x) }
            pixels += line
        }
    }
    let dataOffset = 14 + 40 + palette.count
    var out: [UInt8] = Array("BM".utf8) + littleEndian(UInt32(dataOffset + pixels.count)) + [0, 0, 0, 0]
        + littleEndian(UInt32(dataOffset))
    out += littleEndian(UInt32(40)) + littleEndian(Int32(width)) + littleEndian(Int32(height)) + littleEndian(UInt16(1))
    out += littleEndian(UInt16(runLengthCoded ? 8 : 24)) + littleEndian(UInt32(runLengthCoded ? 1 : 0))
    out += littleEndian(UInt32(pixels.count)) + littleEndian(Int32(2835)) + littleEndian(Int32(2835))
    out += littleEndian(UInt32(runLengthCoded ? 256 : 0)) + littleEndian(UInt32(0))
    return out + palette + pixels
}
