#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The end-to-end field lines of an upstream's HTTP/1.1 response head, as the gateway forwards
/// them to an HTTP/1.1 client: each `name: value\r\n`, the name as received and the value's bytes
/// without the spaces around them, the hop-by-hop fields left out (`ForwardedFields.isHopByHop`).
///
/// ``UpstreamResponseDecoder`` writes them as it reads the head's fields, so that an answer passed
/// through is written from them (``HTTPTypesServerCodec``) with no `HTTPFields` copy of its
/// fields made and written back out: the bytes the same list's fields would be written as. A head
/// with a `Connection` field naming another field has none (those fields are not known to be
/// hop-by-hop until the whole head is read): it is forwarded from its `HTTPFields`.
///
/// A transcoded answer is written from them too (``transcodedBody``): the lines the new body no
/// longer matches (`Transcoder.isReplacedByTranscoding`) left out, a strong `ETag` made weak,
/// as ``Transcoder`` changes a head's fields.
struct ForwardedFieldLines: Sendable {
    /// The lines, one after the other.
    private(set) var bytes: [UInt8] = []
    /// Where the `Content-Length` line is in `bytes`, if there is one: an answer without a body
    /// is written without it.
    private(set) var contentLength: Range<Int>?
    /// Whether a `Connection` field names `close`.
    var connectionCloses = false
    /// Whether a `Vary` field is among the lines.
    private(set) var hasVary = false
    /// How many `ETag` fields are among the lines.
    private var eTagCount = 0
    /// Whether the lines are written for a transcoded body.
    var transcodedBody = false

    /// Whether the lines can stand for a transcoded answer's fields: ``Transcoder`` joins `Accept`
    /// to a `Vary` and all `ETag` fields into one, which lines do not.
    var standForTranscodedAnswer: Bool { !hasVary && eTagCount <= 1 }

    /// Empties the lines for the next head, keeping their storage.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        contentLength = nil
        connectionCloses = false
        hasVary = false
        eTagCount = 0
        transcodedBody = false
    }

    /// Writes `name: value\r\n`, and notes the line's place when it is the `Content-Length`
    /// (`isContentLength`, which the decoder has worked out already).
    mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, isContentLength: Bool) {
        let start = bytes.count
        bytes.appendFieldLine(name: name, value: value)
        if isContentLength {
            contentLength = start..<bytes.count
        } else if name.count == 4 {
            if HTTP1Syntax.is(name, "vary") { hasVary = true }
            if HTTP1Syntax.is(name, "etag") { eTagCount += 1 }
        }
    }

    /// Writes the lines: all of them, all but the `Content-Length` (`droppingContentLength`), or
    /// (``transcodedBody``) with the edits a transcoded body makes.
    func write(into head: inout HeadWriter, droppingContentLength: Bool) {
        guard !transcodedBody else { return writeForTranscodedBody(into: &head) }
        bytes.withUnsafeBytes { lines in
            var from = 0
            if droppingContentLength, let contentLength {
                head.write(UnsafeRawBufferPointer(rebasing: lines[..<contentLength.lowerBound]))
                from = contentLength.upperBound
            }
            head.write(UnsafeRawBufferPointer(rebasing: lines[from...]))
        }
    }

    /// Where the first `byte` at or after `start` is in `bytes`, found by the C library.
    private static func index(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count,
              let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Writes the lines as a transcoded body's: each line whose field the body no longer matches
    /// (`Transcoder.isReplacedByTranscoding`) left out, a strong `ETag`'s value made weak.
    private func writeForTranscodedBody(into head: inout HeadWriter) {
        bytes.withUnsafeBytes { lines in
            var start = 0
            while start < lines.count {
                // Every line is `name: value\r\n`, its name a token: the first colon ends it.
                guard let colon = Self.index(of: UInt8(ascii: ":"), in: lines, from: start),
                      let end = Self.index(of: UInt8(ascii: "\n"), in: lines, from: colon).map({ $0 + 1 })
                else { return }
                let name = UnsafeRawBufferPointer(rebasing: lines[start..<colon])
                if Transcoder.isReplacedByTranscoding(name) {
                    // Left out.
                } else if name.count == 4, HTTP1Syntax.is(name, "etag"),
                          Transcoder.isStrong(eTag: lines[(colon + 2)...]) {
                    head.write(UnsafeRawBufferPointer(rebasing: lines[start..<(colon + 2)]))
                    head.write("W/")
                    head.write(UnsafeRawBufferPointer(rebasing: lines[(colon + 2)..<end]))
                } else {
                    head.write(UnsafeRawBufferPointer(rebasing: lines[start..<end]))
                }
                start = end
            }
        }
    }
}
