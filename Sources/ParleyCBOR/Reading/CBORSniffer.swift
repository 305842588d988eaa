import Parley

/// Checks that the first item of some bytes is well-formed CBOR without building anything:
/// heads, lengths within the input, breaks only where an indefinite length is open, text
/// chunks that are UTF-8. Counts of open containers live on a small explicit stack.
struct CBORSniffer {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Whether the first item is complete and ends the input, or everything read is well-formed
    /// when `maxHeads` heads have been read.
    mutating func firstItemIsWellFormed(maxHeads: Int) -> Bool {
        // Items still to come in each open container; -1 for an indefinite length.
        var open: [Int] = []
        var heads = 0
        while heads < maxHeads {
            heads += 1
            guard offset < bytes.count else { return false }
            let initial = bytes[offset]
            offset += 1
            let major = initial >> 5, info = initial & 0x1F
            var opened: Int?
            if initial == 0xFF {
                guard open.last == -1 else { return false }
                open.removeLast()
            } else if info == 31 {
                switch major {
                case 2, 3: guard skipIndefiniteString(major: major) else { return false }
                case 4, 5: opened = -1
                default: return false
                }
            } else {
                guard let argument = readArgument(info) else { return false }
                switch major {
                case 2, 3:
                    guard argument <= UInt64(bytes.count - offset) else { return false }
                    if major == 3, !isUTF8(count: Int(argument)) { return false }
                    offset += Int(argument)
                case 4: if argument > 0 { opened = Int(min(argument, UInt64(bytes.count))) }
                case 5: if argument > 0 { opened = Int(min(argument, UInt64(bytes.count))) * 2 }
                case 6: opened = 1
                case 7: if info == 24 && argument < 32 { return false }
                default: break
                }
            }
            if let opened {
                guard open.count < 64 else { return false }
                open.append(opened)
                continue
            }
            // One item finished: count it off its container, closing those it completes.
            while let last = open.indices.last, open[last] > 0 {
                open[last] -= 1
                guard open[last] == 0 else { break }
                open.removeLast()
            }
            if open.isEmpty { return offset == bytes.count }
        }
        return true
    }

    private mutating func readArgument(_ info: UInt8) -> UInt64? {
        let width: Int
        switch info {
        case 0...23: return UInt64(info)
        case 24: width = 1
        case 25: width = 2
        case 26: width = 4
        case 27: width = 8
        default: return nil
        }
        guard bytes.count - offset >= width else { return nil }
        var value: UInt64 = 0
        for _ in 0..<width {
            value = value << 8 | UInt64(bytes[offset])
            offset += 1
        }
        return value
    }

    private mutating func skipIndefiniteString(major: UInt8) -> Bool {
        while offset < bytes.count {
            let initial = bytes[offset]
            offset += 1
            if initial == 0xFF { return true }
            guard initial >> 5 == major, let length = readArgument(initial & 0x1F),
                  length <= UInt64(bytes.count - offset) else { return false }
            if major == 3, !isUTF8(count: Int(length)) { return false }
            offset += Int(length)
        }
        return false
    }

    private func isUTF8(count: Int) -> Bool {
        Charset.firstInvalidUTF8(UnsafeBufferPointer(rebasing: bytes[offset..<(offset + count)])) == nil
    }
}
