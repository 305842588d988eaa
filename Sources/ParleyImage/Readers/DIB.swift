import Parley

/// A Windows device-independent bitmap: the header and pixel layout BMP files and ICO entries
/// share, decoded in Swift (1, 4, 8, 16, 24 and 32 bits; uncompressed, bit fields, RLE8, RLE4).
struct DIB {
    var width: Int
    var height: Int             // rows of the image (half the stored height for an icon's XOR+AND pair)
    var isTopDown: Bool
    var bitCount: Int
    var compression: UInt32
    var masks: (red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32)
    var palette: [(UInt8, UInt8, UInt8)]
    var pixelOffset: Int        // from the start of the bytes given to `parse`
    var hasAndMask: Bool        // icon entries: a 1-bit transparency mask follows the pixels

    static let rgb: UInt32 = 0, rle8: UInt32 = 1, rle4: UInt32 = 2, bitFields: UInt32 = 3, alphaBitFields: UInt32 = 6

    /// Parses a DIB header at `headerOffset`; `pixelOffset` is where the pixels start, or `nil`
    /// for an icon entry (pixels follow the palette).
    static func parse(
        _ r: ByteReader, headerOffset h: Int, pixelOffset: Int?, isIcon: Bool, format: String
    ) throws -> DIB {
        func fail(_ message: String) -> FormatError { FormatError(.malformed, format: format, message) }
        guard r.has(4, at: h) else { throw FormatError(.truncated, format: format, "the bitmap header is incomplete") }
        let size = Int(r.uint32LE(at: h))
        guard [12, 16, 40, 52, 56, 64, 108, 124].contains(size) else {
            throw fail("unknown bitmap header size \(size)")
        }
        guard r.has(size, at: h) else {
            throw FormatError(.truncated, format: format, "the bitmap header is incomplete")
        }
        var width: Int, rawHeight: Int, bitCount: Int, compression: UInt32 = rgb, colorsUsed = 0
        var masks: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var paletteOffset = h + size, entrySize = 4
        if size == 12 {
            width = Int(r.uint16LE(at: h + 4)); rawHeight = Int(Int16(bitPattern: r.uint16LE(at: h + 6)))
            bitCount = Int(r.uint16LE(at: h + 10)); entrySize = 3
        } else {
            width = Int(r.int32LE(at: h + 4)); rawHeight = Int(r.int32LE(at: h + 8))
            bitCount = Int(r.uint16LE(at: h + 14))
            if size >= 20 { compression = r.uint32LE(at: h + 16) }
            if size >= 36 { colorsUsed = Int(r.uint32LE(at: h + 32)) }
            if size >= 52 {
                masks = (
                    r.uint32LE(at: h + 40), r.uint32LE(at: h + 44), r.uint32LE(at: h + 48),
                    size >= 56 ? r.uint32LE(at: h + 52) : 0
                )
            } else if size == 40 && (compression == bitFields || compression == alphaBitFields) {
                masks = (r.uint32LE(at: h + 40), r.uint32LE(at: h + 44), r.uint32LE(at: h + 48),
                         compression == alphaBitFields ? r.uint32LE(at: h + 52) : 0)
                paletteOffset += compression == alphaBitFields ? 16 : 12
            }
        }
        guard [1, 2, 4, 8, 16, 24, 32].contains(bitCount) else { throw fail("unsupported bit count \(bitCount)") }
        switch compression {
        case rgb: break
        case rle8 where bitCount == 8, rle4 where bitCount == 4: break
        case bitFields where bitCount == 16 || bitCount == 32, alphaBitFields where bitCount == 16 || bitCount == 32:
            break
        default: throw fail("unsupported compression \(compression) at \(bitCount) bits")
        }
        if compression == rgb {
            if bitCount == 16 { masks = (0x7C00, 0x03E0, 0x001F, 0) }
            if bitCount == 32 { masks = (0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0) }
        }
        let isTopDown = rawHeight < 0 && !isIcon
        var height = rawHeight.magnitude > UInt(Int32.max) ? 0 : Int(rawHeight.magnitude)
        if isIcon { height /= 2 }
        guard width > 0, height > 0 else { throw fail("invalid dimensions \(width)×\(height)") }
        var palette: [(UInt8, UInt8, UInt8)] = []
        if bitCount <= 8 {
            let count = colorsUsed > 0 && colorsUsed < 1 << bitCount ? colorsUsed : 1 << bitCount
            palette.reserveCapacity(count)
            for i in 0..<count {
                let o = paletteOffset + i * entrySize
                guard r.has(3, at: o) else { break }
                palette.append((r.uint8(at: o + 2), r.uint8(at: o + 1), r.uint8(at: o)))
            }
            guard !palette.isEmpty else { throw FormatError(.truncated, format: format, "the color table is missing") }
        }
        let start = pixelOffset ?? (paletteOffset + (bitCount <= 8 ? palette.count * entrySize : 0))
        return DIB(width: width, height: height, isTopDown: isTopDown, bitCount: bitCount, compression: compression,
                   masks: masks, palette: palette, pixelOffset: start, hasAndMask: isIcon)
    }

    var colorType: ImageInfo.ColorType {
        if hasAndMask { return .rgba }
        if bitCount <= 8 { return .palette }
        return masks.alpha != 0 ? .rgba : .rgb
    }

    var bitDepth: Int { bitCount <= 8 ? bitCount : bitCount == 16 ? 5 : 8 }

    /// Bytes in one stored row of `bits`-per-pixel samples (rows pad to 4 bytes).
    static func rowBytes(width: Int, bits: Int) -> Int { (width * bits + 31) / 32 * 4 }

    /// Decodes into RGBA8 rows, top row first.
    func decode(_ r: ByteReader, into out: UnsafeMutableRawBufferPointer, format: String) throws {
        let stride = width * 4
        func destinationRow(_ fileRow: Int) -> Int { isTopDown ? fileRow : height - 1 - fileRow }
        if compression == DIB.rle8 || compression == DIB.rle4 {
            try decodeRLE(r, into: out, format: format)
        } else {
            let rowBytes = DIB.rowBytes(width: width, bits: bitCount)
            let (needed, overflow) = rowBytes.multipliedReportingOverflow(by: height)
            guard !overflow, r.has(needed, at: pixelOffset) else {
                throw FormatError(.truncated, format: format, "the pixel data is incomplete")
            }
            for fileRow in 0..<height {
                let source = pixelOffset + fileRow * rowBytes
                var o = destinationRow(fileRow) * stride
                for x in 0..<width {
                    let (red, green, blue, alpha) = pixel(r, row: source, x: x)
                    out[o] = red; out[o + 1] = green; out[o + 2] = blue; out[o + 3] = alpha
                    o += 4
                }
            }
        }
        if hasAndMask && !(bitCount == 32) {
            let maskRowBytes = DIB.rowBytes(width: width, bits: 1)
            guard let pixelBytes = ImageBudget.product(DIB.rowBytes(width: width, bits: bitCount), height),
                  let maskBytes = ImageBudget.product(maskRowBytes, height),
                  case (let maskOffset, false) = pixelOffset.addingReportingOverflow(pixelBytes),
                  r.has(maskBytes, at: maskOffset) else { return }                  // a missing mask: opaque
            for fileRow in 0..<height {
                let row = destinationRow(fileRow) * stride
                for x in 0..<width
                where r.uint8(at: maskOffset + fileRow * maskRowBytes + x / 8) & (0x80 >> UInt8(x % 8)) != 0 {
                    out[row + x * 4 + 3] = 0
                }
            }
        }
    }

    private func paletteColor(_ index: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        guard index < palette.count else { return (0, 0, 0, 255) }
        let (red, green, blue) = palette[index]
        return (red, green, blue, 255)
    }

    private func pixel(_ r: ByteReader, row: Int, x: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        switch bitCount {
        case 1, 2, 4, 8:
            let bitOffset = x * bitCount
            let byte = r.uint8(at: row + bitOffset / 8)
            let shift = 8 - bitCount - bitOffset % 8
            return paletteColor(Int(byte >> UInt8(shift)) & ((1 << bitCount) - 1))
        case 24:
            let o = row + x * 3
            return (r.uint8(at: o + 2), r.uint8(at: o + 1), r.uint8(at: o), 255)
        default:
            let value = bitCount == 16 ? UInt32(r.uint16LE(at: row + x * 2)) : r.uint32LE(at: row + x * 4)
            let alpha = masks.alpha != 0
                ? DIB.channel(value, masks.alpha)
                : (hasAndMask && bitCount == 32 ? UInt8(value >> 24) : 255)
            return (DIB.channel(value, masks.red), DIB.channel(value, masks.green), DIB.channel(value, masks.blue),
                    alpha)
        }
    }

    /// The masked field of `value` scaled to 0…255.
    static func channel(_ value: UInt32, _ mask: UInt32) -> UInt8 {
        guard mask != 0 else { return 0 }
        let shift = mask.trailingZeroBitCount
        let maximum = UInt64(mask >> UInt32(shift))
        let field = UInt64((value & mask) >> UInt32(shift))
        return UInt8((field * 255 + maximum / 2) / maximum)
    }

    /// RLE8 and RLE4: runs and absolute blocks of palette indices; pixels never written stay index 0.
    ///
    /// - Complexity: O(input bytes + width × height): a run's pixels past the end of its row are
    ///   skipped in one step, never walked.
    private func decodeRLE(_ r: ByteReader, into out: UnsafeMutableRawBufferPointer, format: String) throws {
        let background = paletteColor(0)
        for i in Swift.stride(from: 0, to: width * height * 4, by: 4) {
            out[i] = background.0; out[i + 1] = background.1; out[i + 2] = background.2; out[i + 3] = background.3
        }
        let isRLE4 = compression == DIB.rle4
        var offset = pixelOffset, x = 0, fileRow = 0
        /// Writes the pixels of a `count`-pixel run that fall inside the current row (pixel `i`
        /// has palette index `index(i)`), then moves the cursor past the whole run.
        func run(_ count: Int, _ index: (Int) -> Int) {
            if fileRow < height && x < width {
                let row = (isTopDown ? fileRow : height - 1 - fileRow) * width
                for i in 0..<min(count, width - x) {
                    let o = (row + x + i) * 4, color = paletteColor(index(i))
                    out[o] = color.0; out[o + 1] = color.1; out[o + 2] = color.2; out[o + 3] = color.3
                }
            }
            x = min(x + count, width)       // past the row end, more pixels change nothing
        }
        func truncated() -> FormatError { FormatError(.truncated, format: format, "the RLE data is incomplete") }
        while fileRow < height {
            guard r.has(2, at: offset) else { throw truncated() }
            let count = Int(r.uint8(at: offset)), value = r.uint8(at: offset + 1)
            offset += 2
            if count > 0 {
                run(count) { isRLE4 ? Int($0 % 2 == 0 ? value >> 4 : value & 0x0F) : Int(value) }
                continue
            }
            switch value {
            case 0: x = 0; fileRow += 1                                     // end of line
            case 1: return                                                  // end of bitmap
            case 2:                                                         // delta
                guard r.has(2, at: offset) else { throw truncated() }
                x = min(x + Int(r.uint8(at: offset)), width); fileRow += Int(r.uint8(at: offset + 1))
                offset += 2
            default:                                                        // absolute run
                let n = Int(value)
                let dataBytes = isRLE4 ? (n + 1) / 2 : n
                guard r.has(dataBytes, at: offset) else { throw truncated() }
                let start = offset
                run(n) { i in
                    let byte = r.uint8(at: start + (isRLE4 ? i / 2 : i))
                    return isRLE4 ? Int(i % 2 == 0 ? byte >> 4 : byte & 0x0F) : Int(byte)
                }
                offset += (dataBytes + 1) & ~1
            }
        }
    }
}
