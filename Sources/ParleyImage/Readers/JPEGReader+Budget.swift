import Parley

extension JPEGReader {
    /// What the budget needs from a JPEG's marker segments.
    struct Layout {
        /// Whether the frame is progressive (SOF2, SOF6, SOF10, SOF14).
        var isProgressive = false
        /// Each component's horizontal and vertical sampling factors.
        var sampling: [(horizontal: Int, vertical: Int)] = []
        /// Where the first scan (its SOS marker) starts, when there is one.
        var firstScan: Int?
    }

    /// One body byte of scan data is required for every this many declared pixels, and each scan
    /// past ``freeScans`` needs as much again: libjpeg walks every block of a scan's components
    /// whatever the scan carries, so scans without data cost time and nothing else.
    static let pixelsPerScanByte = 4096
    /// The scans any JPEG may have, whatever its body (a progressive script has about ten).
    static let freeScans = 16

    /// Walks the marker segments up to the first scan.
    static func layout(_ bytes: UnsafeRawBufferPointer) -> Layout {
        let r = ByteReader(bytes)
        var layout = Layout(), offset = 2
        while r.has(4, at: offset), r.uint8(at: offset) == 0xFF {
            let marker = r.uint8(at: offset + 1)
            if marker == 0xFF { offset += 1; continue }                        // fill byte
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { offset += 2; continue }
            if marker == 0xDA { layout.firstScan = offset; break }
            if marker == 0xD9 { break }
            let length = Int(r.uint16BE(at: offset + 2))
            guard length >= 2, r.has(length, at: offset + 2) else { break }
            let isFrameHeader = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrameHeader, length >= 8 {
                layout.isProgressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                let components = Int(r.uint8(at: offset + 9))
                guard r.has(8 + 3 * components, at: offset + 2) else { break }
                layout.sampling = (0..<components).map { i in
                    let factors = r.uint8(at: offset + 11 + 3 * i)
                    return (Int(factors >> 4), Int(factors & 0x0F))
                }
            }
            offset += 2 + length
        }
        return layout
    }

    /// The bytes of libjpeg's whole-image coefficient arrays for a progressive frame (a 64-sample
    /// block of 2-byte coefficients for every block of every component), or `nil` when the
    /// sampling factors are invalid (libjpeg refuses them).
    static func coefficientBytes(width: Int, height: Int, sampling: [(horizontal: Int, vertical: Int)]) -> Int? {
        guard !sampling.isEmpty,
            sampling.allSatisfy({ (1...4).contains($0.horizontal) && (1...4).contains($0.vertical) })
        else {
            return nil
        }
        let maxH = sampling.map(\.horizontal).max()!, maxV = sampling.map(\.vertical).max()!
        func blocks(_ size: Int, _ factor: Int, _ maxFactor: Int) -> Int {
            let count = (size * factor + maxFactor * 8 - 1) / (maxFactor * 8)
            return (count + factor - 1) / factor * factor
        }
        return sampling.reduce(0) { total, s in
            total + blocks(width, s.horizontal, maxH) * blocks(height, s.vertical, maxV) * 128
        }
    }

    /// Refuses a body with too little scan data for its declared size, and a progressive frame
    /// whose coefficient arrays would not fit the budget, before the pixel buffer is allocated.
    static func reserve(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                        budget: inout ImageBudget) throws {
        let layout = layout(bytes)
        guard let firstScan = layout.firstScan else { return }              // libjpeg reports it
        let scanBytes = bytes.count - firstScan, needed = info.width * info.height / pixelsPerScanByte
        if scanBytes < needed {
            throw FormatError(
                .truncated, format: "jpeg",
                "\(scanBytes) bytes of scan data cannot hold \(info.width)×\(info.height) pixels (at least \(needed), "
                    + "one per \(pixelsPerScanByte) pixels)",
                location: .init(byteOffset: firstScan))
        }
        if layout.isProgressive,
           let coefficients = coefficientBytes(width: info.width, height: info.height, sampling: layout.sampling) {
            var probe = budget      // libjpeg's own ceiling is the whole remaining budget; this only checks
            try probe.charge(
                coefficients, for: "libjpeg's progressive coefficient arrays (\(coefficients) bytes)", format: "jpeg")
        }
    }

    /// The scans this body may have: ``freeScans``, plus one per `width × height / 4096` bytes of
    /// scan data, never more than `maxProgressiveScans`.
    static func allowedScans(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits) -> Int {
        let scanBytes = layout(bytes).firstScan.map { bytes.count - $0 } ?? 0
        let perScan = max(1, info.width * info.height / pixelsPerScanByte)
        return min(limits.maxProgressiveScans, freeScans + scanBytes / perScan)
    }
}
