import Parley

extension MultipartFormData {
    /// Produces a form's body front to back into caller-provided buffers, holding at most one
    /// open file or stream; memory use does not depend on the parts' sizes.
    ///
    /// Throws `FormatError.Code.truncated` or `FormatError.Code.malformed` when a file or
    /// stream yields fewer or more bytes than were announced (``contentLength`` would be wrong).
    public final class Reader {
        private enum Stage {
            case head(Int, [UInt8], offset: Int)
            case content(Int, any ByteReader, remaining: Int)
            case tail([UInt8], offset: Int)
            case done
        }

        private let form: MultipartFormData
        private var stage: Stage

        init(form: MultipartFormData) {
            self.form = form
            self.stage = form.parts.isEmpty ? .tail(form.tail, offset: 0) : .head(0, form.head(ofPart: 0), offset: 0)
        }

        /// Fills `buffer` as far as the body allows and returns the count; 0 means the end.
        public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            var filled = 0
            while filled < buffer.count {
                switch stage {
                case .done:
                    return filled
                case .head(let index, let bytes, let offset):
                    let count = copy(bytes, from: offset, into: buffer, at: &filled)
                    if offset + count < bytes.count {
                        stage = .head(index, bytes, offset: offset + count)
                    } else {
                        try startContent(ofPart: index)
                    }
                case .tail(let bytes, let offset):
                    let count = copy(bytes, from: offset, into: buffer, at: &filled)
                    stage = offset + count < bytes.count ? .tail(bytes, offset: offset + count) : .done
                case .content(let index, let source, let remaining):
                    if remaining == 0 {
                        try finishContent(ofPart: index, source: source)
                        continue
                    }
                    let end = min(buffer.count, filled + remaining)
                    let window = UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<end])
                    let count = try source.read(into: window)
                    if count == 0 {
                        throw FormatError(.truncated, format: MultipartFormData.formatName,
                                          "part '\(form.parts[index].name)' ended \(remaining) bytes before its " +
                                          "announced length")
                    }
                    filled += count
                    stage = .content(index, source, remaining: remaining - count)
                }
            }
            return filled
        }

        /// Reads up to `maxCount` bytes; an empty array means the end.
        public func read(maxCount: Int) throws -> [UInt8] {
            var chunk = [UInt8](repeating: 0, count: max(1, maxCount))
            let count = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            chunk.removeSubrange(count...)
            return chunk
        }

        private func copy(_ bytes: [UInt8], from offset: Int, into buffer: UnsafeMutableRawBufferPointer,
                          at filled: inout Int) -> Int {
            let count = min(bytes.count - offset, buffer.count - filled)
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<(filled + count)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
            }
            filled += count
            return count
        }

        private func startContent(ofPart index: Int) throws {
            let source: any ByteReader
            switch form.parts[index].content {
            case .bytes(let bytes): source = MemoryByteReader(bytes)
            case .file(let path, _): source = try FileByteReader(path: path)
            case .stream(_, let open): source = try open()
            }
            stage = .content(index, source, remaining: form.parts[index].content.length)
        }

        private func finishContent(ofPart index: Int, source: any ByteReader) throws {
            if case .bytes = form.parts[index].content {} else {
                // One more byte means the file or stream grew since it was measured.
                var probe: UInt8 = 0
                let extra = try withUnsafeMutableBytes(of: &probe) { try source.read(into: $0) }
                if extra != 0 {
                    throw FormatError(.malformed, format: MultipartFormData.formatName,
                                      "part '\(form.parts[index].name)' is longer than its announced length " +
                                      "\(form.parts[index].content.length)")
                }
            }
            let next = index + 1
            stage = next < form.parts.count ? .head(next, form.head(ofPart: next), offset: 0)
                : .tail(form.tail, offset: 0)
        }
    }

    /// The body as an `AsyncSequence` of byte chunks; each iteration produces the body afresh.
    public struct Chunks: AsyncSequence, Sendable {
        public typealias Element = [UInt8]
        let form: MultipartFormData
        let size: Int

        public func makeAsyncIterator() -> Iterator {
            Iterator(reader: form.makeReader(), size: size)
        }

        /// Pulls the next chunk from a ``Reader``.
        public struct Iterator: AsyncIteratorProtocol {
            let reader: Reader
            let size: Int

            public mutating func next() async throws -> [UInt8]? {
                let chunk = try reader.read(maxCount: size)
                return chunk.isEmpty ? nil : chunk
            }
        }
    }
}

/// Reads bytes held in memory.
public final class MemoryByteReader: ByteReader {
    private let bytes: [UInt8]
    private var offset = 0

    /// Creates a reader over `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
        }
        offset += count
        return count
    }
}
