#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOHTTP1

/// The bytes an HTTP/1.1 decoder has received and not decoded yet, read as llhttp reads them:
/// lines that end in CRLF (a bare LF or CR is an error), and body bytes. Both of the gateway's
/// decoders (``ClientRequestDecoder``, ``UpstreamResponseDecoder``) read through one.
struct HTTP1Input {
    private var buffer = ByteBuffer()
    /// How many bytes at the start of `buffer` were scanned for a line's end and hold none.
    private var scanned = 0

    var readableBytes: Int { buffer.readableBytes }
    var readableBytesView: ByteBufferView { buffer.readableBytesView }

    /// Takes bytes from the connection.
    mutating func receive(_ bytes: ByteBuffer) {
        if buffer.readableBytes == 0 {
            buffer = bytes
        } else {
            var bytes = bytes
            buffer.writeBuffer(&bytes)
        }
    }

    /// The bytes not read, which the input then drops.
    mutating func takeAll() -> ByteBuffer {
        defer { dropAll() }
        return buffer
    }

    /// Drops the bytes not read.
    mutating func dropAll() {
        buffer = ByteBuffer()
        scanned = 0
    }

    /// Skips the CR and LF bytes before a start line (llhttp skips them between messages).
    mutating func skipEmptyLines() {
        while let byte = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self),
              byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
            buffer.moveReaderIndex(forwardBy: 1)
            scanned = 0
        }
    }

    /// The next line (without its CRLF), or `nil` when it has not ended yet; throws for a bare LF
    /// or CR, and `headerOverflow` for an unfinished line longer than `limit`.
    mutating func readLine(limit: Int) throws -> ByteBuffer? {
        let scanned = self.scanned
        let found = try buffer.withUnsafeReadableBytes { bytes -> Int? in
            // From the last byte scanned before: a CR there may have been waiting for its LF.
            let start = max(scanned - 1, 0)
            guard let base = bytes.baseAddress, start < bytes.count else { return nil }
            let lineFeed = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
                .map { base.distance(to: UnsafeRawPointer($0)) }
            // Every CR before the line's CRLF (or before the last byte, when no LF came yet) is bare.
            let bareCREnd = lineFeed.map { $0 - 1 } ?? bytes.count - 1
            if bareCREnd > start, memchr(base + start, Int32(UInt8(ascii: "\r")), bareCREnd - start) != nil {
                throw HTTPParserError.lfExpected
            }
            guard let lineFeed else { return nil }
            guard lineFeed > 0, bytes[lineFeed - 1] == UInt8(ascii: "\r") else { throw HTTPParserError.lfExpected }
            return lineFeed
        }
        guard let end = found else {
            self.scanned = buffer.readableBytes
            guard self.scanned <= limit else { throw HTTPParserError.headerOverflow }
            return nil
        }
        self.scanned = 0
        let line = buffer.readSlice(length: end - 1)!
        buffer.moveReaderIndex(forwardBy: 2)
        return line
    }

    /// Up to `count` body bytes, or `nil` when none has arrived.
    mutating func readBytes(upTo count: Int) -> ByteBuffer? {
        guard buffer.readableBytes > 0 else { return nil }
        return buffer.readSlice(length: min(count, buffer.readableBytes))
    }
}

/// Where a message body framed by length or by chunks is read up to (RFC 9112 §6.2, §7.1).
enum HTTP1Body {
    /// A body of a known length: the bytes still to come.
    case fixed(Int)
    /// A chunk's size line.
    case chunkSize
    /// A chunk's data: the bytes still to come.
    case chunkData(Int)
    /// The CRLF after a chunk's data.
    case chunkDataEnd
    /// The fields after the last chunk.
    case trailers

    /// What reading the body came to.
    enum Event {
        /// Body bytes; more are to come.
        case data(ByteBuffer)
        /// The last bytes of a body of a known length: the message has ended.
        case lastData(ByteBuffer)
        /// A trailer field's line.
        case trailer(ByteBuffer)
        /// The blank line after the trailers: the message has ended.
        case trailersEnded
    }

    /// Reads the next event from `input`, or `nil` when more bytes are needed. A chunk-size line
    /// may be `chunkLineLimit` bytes long, a trailer line `trailerLineLimit`; a chunk size that
    /// is not one, or chunk data not followed by CRLF, is `invalidChunkSize`.
    mutating func read(from input: inout HTTP1Input, chunkLineLimit: Int, trailerLineLimit: Int) throws -> Event? {
        while true {
            switch self {
            case .fixed(let remaining):
                guard let bytes = input.readBytes(upTo: remaining) else { return nil }
                if bytes.readableBytes == remaining { return .lastData(bytes) }
                self = .fixed(remaining - bytes.readableBytes)
                return .data(bytes)
            case .chunkSize:
                guard let line = try input.readLine(limit: chunkLineLimit) else { return nil }
                let size = try HTTP1Syntax.chunkSize(line)
                self = size == 0 ? .trailers : .chunkData(size)
            case .chunkData(let remaining):
                guard let bytes = input.readBytes(upTo: remaining) else { return nil }
                self = bytes.readableBytes == remaining ? .chunkDataEnd : .chunkData(remaining - bytes.readableBytes)
                return .data(bytes)
            case .chunkDataEnd:
                guard let line = try input.readLine(limit: chunkLineLimit) else { return nil }
                guard line.readableBytes == 0 else { throw HTTPParserError.invalidChunkSize }
                self = .chunkSize
            case .trailers:
                guard let line = try input.readLine(limit: trailerLineLimit) else { return nil }
                return line.readableBytes > 0 ? .trailer(line) : .trailersEnded
            }
        }
    }
}
