import Parley

/// A walk over a TIFF's image file directories (IFDs) in Swift, before libtiff reads them.
///
/// libtiff keeps every tag value of the directory it reads, known or not, and 4.5 has no
/// cumulative allocation limit: 512 tags pointing at one 4 MiB blob make it hold 2 GiB. So the
/// bytes each directory's values declare are summed here and charged against the budget first.
enum TIFFDirectories {
    /// The strip and tile offset and byte-count tags, which libtiff (opened with "O") reads only
    /// when a page is decoded.
    static let deferredTags: Set<Int> = [273, 279, 324, 325]

    /// The bytes of tag values each directory declares, first directory first, for at most
    /// `maxDirectories` directories. A value that does not lie inside the file is not counted
    /// (libtiff refuses it before allocating); the walk stops at a loop or a directory that does
    /// not fit, which libtiff then reports.
    ///
    /// - Parameter includesDeferredTags: Whether ``deferredTags`` count (they do when the page
    ///   is decoded, not when libtiff only reads the directory).
    /// - Complexity: O(directories × entries), at most `maxDirectories` × 4,096 entries.
    static func tagBytes(_ bytes: UnsafeRawBufferPointer, maxDirectories: Int, includesDeferredTags: Bool) -> [Int] {
        let r = ByteReader(bytes)
        guard r.has(8, at: 0) else { return [] }
        let little = r.uint8(at: 0) == 0x49
        func u16(_ o: Int) -> Int { Int(little ? r.uint16LE(at: o) : r.uint16BE(at: o)) }
        func u32(_ o: Int) -> Int { Int(little ? r.uint32LE(at: o) : r.uint32BE(at: o)) }
        func u64(_ o: Int) -> Int { Int(exactly: little ? r.uint64LE(at: o) : r.uint64BE(at: o)) ?? Int.max }
        let isBig = u16(2) == 43
        let countSize = isBig ? 8 : 2, entrySize = isBig ? 20 : 12, inlineBytes = isBig ? 8 : 4
        var offset = isBig ? u64(8) : u32(4)
        var visited: Set<Int> = [], result: [Int] = []
        while offset != 0, result.count < maxDirectories, visited.insert(offset).inserted,
              r.has(countSize, at: offset) {
            let count = isBig ? u64(offset) : u16(offset)
            let entries = offset + countSize
            // libtiff refuses a directory of more than 4,096 entries.
            guard count <= 4096, r.has(count * entrySize + (isBig ? 8 : 4), at: entries) else { break }
            var total = 0
            for i in 0..<count {
                let entry = entries + i * entrySize
                if !includesDeferredTags && deferredTags.contains(u16(entry)) { continue }
                let valueCount = isBig ? u64(entry + 4) : u32(entry + 4)
                guard let size = ImageBudget.product(valueCount, typeSize(u16(entry + 2))) else { continue }
                if size > inlineBytes {
                    let valueOffset = isBig ? u64(entry + 12) : u32(entry + 8)
                    guard r.has(size, at: valueOffset) else { continue }
                }
                let (sum, overflow) = total.addingReportingOverflow(size)
                total = overflow ? Int.max : sum
            }
            result.append(total)
            let next = entries + count * entrySize
            offset = isBig ? u64(next) : u32(next)
        }
        return result
    }

    /// Bytes per value of a TIFF field type; 0 for an unknown type (libtiff ignores the entry).
    static func typeSize(_ type: Int) -> Int {
        switch type {
        case 1, 2, 6, 7: 1                  // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: 2                        // SHORT, SSHORT
        case 4, 9, 11, 13: 4                // LONG, SLONG, FLOAT, IFD
        case 5, 10, 12, 16, 17, 18: 8       // RATIONAL, SRATIONAL, DOUBLE, LONG8, SLONG8, IFD8
        default: 0
        }
    }
}
