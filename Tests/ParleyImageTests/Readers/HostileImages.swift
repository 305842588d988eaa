/// Generators for the hostile inputs of issue #22 (image rows), built in memory so no
/// multi-megabyte file is committed. Each returns a complete file's bytes.
enum HostileImages {
    // MARK: TIFF

    /// A valid little-endian 1×1 8-bit gray TIFF of `pages` identical pages, each directory also
    /// having `tags` unknown UNDEFINED tags (60000, 60001, …), every one pointing at the same
    /// `blobBytes`-byte blob.
    static func tiffWithSharedTagBlob(tags: Int, blobBytes: Int, pages: Int = 1) -> [UInt8] {
        let blobOffset = 10
        var entries: [(tag: Int, type: Int, count: Int, value: Int)] = [
            (256, 3, 1, 1), (257, 3, 1, 1), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
            (273, 4, 1, 8), (277, 3, 1, 1), (278, 3, 1, 1), (279, 4, 1, 1),
        ]
        entries += (0..<tags).map { (60000 + $0, 7, blobBytes, blobOffset) }
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(10 + blobBytes) + [0x80, 0x00]
        bytes += [UInt8](repeating: 0x5A, count: blobBytes)
        for page in 0..<pages {
            bytes += le16(entries.count)
            for entry in entries {
                bytes += le16(entry.tag) + le16(entry.type) + le32(entry.count)
                bytes += entry.type == 3 ? le16(entry.value) + [0, 0] : le32(entry.value)
            }
            bytes += le32(page == pages - 1 ? 0 : bytes.count + 4)
        }
        return bytes
    }

    /// A little-endian TIFF header and directory declaring `width` × `height` 8-bit gray pixels
    /// in one LZW strip of one byte (LZW, so libtiff does not split the strip up by size).
    static func tiffDeclaring(width: UInt32, height: UInt32) -> [UInt8] {
        let entries: [(Int, Int, UInt32)] = [(256, 4, width), (257, 4, height), (258, 3, 8), (259, 3, 5), (262, 3, 1),
                                             (273, 4, 8), (277, 3, 1), (278, 4, height), (279, 4, 1)]
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(10) + [0x80, 0x00] + le16(entries.count)
        for (tag, type, value) in entries {
            bytes += le16(tag) + le16(type) + le32(1)
            bytes += type == 3 ? le16(Int(value)) + [0, 0] : le32(Int(value))
        }
        return bytes + le32(0)
    }

    // MARK: PNG and ICO

    /// A 1×1 RGBA PNG (pixel 10 20 30 40) with `chunks` zTXt chunks before its IDAT, each
    /// inflating to 7,999,807 bytes of "a" (fixed-Huffman deflate, about 50 KB a chunk).
    static func pngWithTextBombs(chunks: Int) -> [UInt8] {
        let text = Array("k".utf8) + [0, 0] + deflatedRepeats(of: 0x61, runs: 31_007)
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", be32(1) + be32(1) + [8, 6, 0, 0, 0])
        let zTXt = chunk("zTXt", text)
        for _ in 0..<chunks { bytes += zTXt }
        // A stored deflate block holding the one row: filter 0, then RGBA.
        let row: [UInt8] = [0, 10, 20, 30, 40]
        bytes += chunk("IDAT", [0x78, 0x01, 0x01, 0x05, 0x00, 0xFA, 0xFF] + row + be32(adler32(row)))
        return bytes + chunk("IEND", [])
    }

    /// An icon directory with one entry holding `png`.
    static func icoHolding(_ png: [UInt8]) -> [UInt8] {
        [0, 0, 1, 0, 1, 0] + [1, 1, 0, 0] + le16(1) + le16(32) + le32(png.count) + le32(22) + png
    }

    // MARK: JPEG

    /// The pieces of the hand-made gray JPEGs: one quantisation table of ones; Huffman tables
    /// with a single 1-bit code each, DC category 0 and AC end-of-band run 2¹⁴ (`0xE0`).
    static let jpegTables: [UInt8] = segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        + segment(0xC4, [0x00] + [1] + [UInt8](repeating: 0, count: 15) + [0x00]
                      + [0x10] + [1] + [UInt8](repeating: 0, count: 15) + [0xE0])

    /// A one-component frame header (`0xC0` baseline, `0xC2` progressive).
    static func jpegFrame(_ marker: UInt8, width: Int, height: Int) -> [UInt8] {
        segment(marker, [8] + be16(height) + be16(width) + [1, 1, 0x11, 0])
    }

    /// A scan header for the one component: spectral selection `start...end`.
    static func jpegScan(start: UInt8, end: UInt8) -> [UInt8] {
        segment(0xDA, [1, 1, 0x00, start, end, 0])
    }

    /// Row 9: a progressive `width`×`height` JPEG with a DC scan and `scans - 1` AC scans, none
    /// carrying entropy data (about 10 bytes a scan).
    static func progressiveJPEGWithEmptyScans(width: Int, height: Int, scans: Int) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8] + jpegTables + jpegFrame(0xC2, width: width, height: height)
        bytes += jpegScan(start: 0, end: 0)
        for _ in 1..<scans { bytes += jpegScan(start: 1, end: 63) }
        return bytes + [0xFF, 0xD9]
    }

    /// A valid progressive 1,024×1,024 gray JPEG (16,384 blocks) with `scans` scans: every DC
    /// difference 0 (one bit a block), then AC scans that are each one end-of-band run of 2¹⁴
    /// blocks (code `0`, 14 extra bits `0`, one padding bit: `00 01`). Mid-gray everywhere.
    static func progressiveJPEGWithMinimalScans(scans: Int) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8] + jpegTables + jpegFrame(0xC2, width: 1024, height: 1024)
        bytes += jpegScan(start: 0, end: 0) + [UInt8](repeating: 0, count: 16_384 / 8)
        for _ in 1..<scans { bytes += jpegScan(start: 1, end: 63) + [0x00, 0x01] }
        return bytes + [0xFF, 0xD9]
    }

    /// Row 10: a baseline JPEG with its frame header, a scan header and EOI, and no entropy data.
    static func jpegWithoutEntropyData(width: Int, height: Int) -> [UInt8] {
        [0xFF, 0xD8] + jpegTables + jpegFrame(0xC0, width: width, height: height)
            + jpegScan(start: 0, end: 63) + [0xFF, 0xD9]
    }

    // MARK: BMP

    /// Row 13: a `width`×1 8-bit RLE BMP whose data is `runs` runs of 255 pixels (index 1, red)
    /// on its one row, then end of bitmap: every run but the first lies past the row end.
    static func rleBMPWithLongRuns(width: Int, runs: Int) -> [UInt8] {
        let palette: [UInt8] = [0, 0, 0, 0, 0, 0, 255, 0] + [UInt8](repeating: 0, count: 254 * 4)
        let data = [UInt16](repeating: 0x01FF, count: runs).withUnsafeBytes { Array($0) } + [0, 1]
        let offset = 14 + 40 + palette.count
        return Array("BM".utf8) + le32(offset + data.count) + le32(0) + le32(offset)
            + le32(40) + le32(width) + le32(1) + le16(1) + le16(8) + le32(1) + le32(data.count)
            + le32(2835) + le32(2835) + le32(256) + le32(0) + palette + data
    }

    /// A BMP with RLE8 `data` for a `width`×`height` bottom-up image; palette index 1 is red,
    /// 2 green, 0 black.
    static func rleBMP(width: Int, height: Int, data: [UInt8]) -> [UInt8] {
        let palette: [UInt8] = [0, 0, 0, 0, 0, 0, 255, 0, 0, 255, 0, 0] + [UInt8](repeating: 0, count: 253 * 4)
        let offset = 14 + 40 + palette.count
        return Array("BM".utf8) + le32(offset + data.count) + le32(0) + le32(offset)
            + le32(40) + le32(width) + le32(height) + le16(1) + le16(8) + le32(1) + le32(data.count)
            + le32(2835) + le32(2835) + le32(256) + le32(0) + palette + data
    }

    // MARK: Bytes

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be32(_ v: Int) -> [UInt8] { be16(v >> 16 & 0xFFFF) + be16(v & 0xFFFF) }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(payload.count + 2) + payload
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return be32(data.count) + typeAndData + be32(Int(crc32(typeAndData)))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> Int {
        var a = 1, b = 0
        for byte in bytes { a = (a + Int(byte)) % 65521; b = (b + a) % 65521 }
        return b << 16 | a
    }

    /// A zlib stream of `1 + 258 × runs` copies of `byte`: the literal, then `runs`
    /// length-258/distance-1 copies, in one fixed-Huffman block (13 bits a copy).
    static func deflatedRepeats(of byte: UInt8, runs: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01], accumulator: UInt64 = 0, count = 0
        func put(_ value: UInt64, _ bits: Int) {               // LSB first
            accumulator |= value << UInt64(count); count += bits
            while count >= 8 { out.append(UInt8(accumulator & 0xFF)); accumulator >>= 8; count -= 8 }
        }
        func putCode(_ code: UInt64, _ bits: Int) {            // Huffman codes go MSB first
            var reversed: UInt64 = 0
            for i in 0..<bits { reversed |= (code >> UInt64(i) & 1) << UInt64(bits - 1 - i) }
            put(reversed, bits)
        }
        put(1, 1); put(1, 2)                                    // final block, fixed Huffman
        putCode(0x30 + UInt64(byte), 8)                         // the literal (byte < 144)
        for _ in 0..<runs { putCode(0xC5, 8); putCode(0, 5) }   // length 258 (code 285), distance 1
        putCode(0, 7)                                           // end of block
        if count > 0 { out.append(UInt8(accumulator & 0xFF)) }
        let n = 1 + 258 * runs, v = Int(byte)                   // Adler-32 of n copies of v
        let a = (1 + v * n) % 65521, b = (n + v * (n * (n + 1) / 2 % 65521)) % 65521
        return out + be32(b << 16 | a)
    }
}
