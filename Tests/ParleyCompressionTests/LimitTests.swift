import CParleyZstd
import Foundation
import Parley
import ParleyHTTP
import ParleyCompression
import Testing

@Suite("Corrupt, truncated and bomb inputs")
struct LimitTests {
    static let codings: [ContentCoding] = [.gzip, .deflate, .brotli, .zstd]
    static let text = TestInputs.jsonLike(size: 64 << 10)

    @Test("Every cut of a body reads as truncated", arguments: codings)
    func truncated(coding: ContentCoding) {
        let coded = Compressor().compress(Self.text, coding: coding)
        for length in [0, 1, 2, coded.count / 3, coded.count / 2, coded.count - 2, coded.count - 1] {
            #expect(throws: DecompressionError(.truncated, coding: coding), "\(length) of \(coded.count) bytes") {
                try Decompressor().decompress(Array(coded.prefix(length)), coding: coding)
            }
        }
    }

    @Test("Brotli: bytes after the stream, a large-window stream and plain text are corrupt")
    func corruptBrotli() throws {
        let coded = Compressor().compress(Self.text, coding: .brotli)
        let failures: [[UInt8]] = [coded + [0], coded + coded, try TestInputs.fixture("api-24k.json.large-window.br"),
                                   Array("<html><body>Parley</body></html>".utf8)]
        for bytes in failures {
            #expect { try Decompressor().decompress(bytes, coding: .brotli) } throws: {
                ($0 as? DecompressionError)?.reason == .corrupt
            }
        }
    }

    @Test("zstd: a wrong checksum, trailing garbage and a window over 8 MiB are corrupt")
    func corruptZstd() throws {
        var coded = Compressor().compress(Self.text, coding: .zstd)
        let garbage = coded + Array("garbage".utf8)
        coded[coded.count - 1] ^= 0xFF  // the last byte of the frame's checksum
        // A frame header asking a 128 MiB window (Window_Descriptor 0x88), then one raw block.
        let wideWindow: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x88, 0x09, 0x00, 0x00, 0x41]
        for bytes in [coded, garbage, wideWindow] {
            #expect { try Decompressor().decompress(bytes, coding: .zstd) } throws: {
                ($0 as? DecompressionError)?.reason == .corrupt
            }
        }
        #expect { try Decompressor().decompress(wideWindow, coding: .zstd) } throws: {
            "\($0)".contains("RFC 9659")
        }
    }

    @Test("Concatenated zstd frames and skippable frames decode (RFC 8878 §3)")
    func frames() throws {
        let one = Compressor().compress(Array("one ".utf8), coding: .zstd)
        let two = Compressor().compress(Array("two".utf8), coding: .zstd)
        let skippable: [UInt8] = [0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 1, 2, 3]
        #expect(try Decompressor().decompress(one + skippable + two, coding: .zstd) == Array("one two".utf8))
        #expect(Decompressor.looksLikeZstd(skippable))
    }

    @Test("A 1 GiB zstd frame of zeros stops at the limit, quickly and in small memory")
    func zstdBomb() throws {
        let bomb = Self.zstdFrameOfZeros(count: 1 << 30)
        #expect(bomb.count < 64 << 10)
        let residentBefore = TestInputs.peakResidentBytes()
        let start = ContinuousClock.now
        #expect(throws: DecompressionError(.limitExceeded(maximum: 16 << 20), coding: .zstd)) {
            try Decompressor(maximumBytes: 16 << 20).decompress(bomb, coding: .zstd)
        }
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(TestInputs.peakResidentBytes() - residentBefore < 256 << 20)
        // Through the contract: the pipeline's reason.
        #expect { try CompressionDecoder(.zstd).decode(bomb, maximumBytes: 1 << 20) } throws: {
            ($0 as? ContentDecodingError)?.reason == .limitExceeded(maximum: 1 << 20)
        }
    }

    @Test("A 1 GiB brotli bomb made by the brotli tool stops at the limit, quickly and in small memory")
    func brotliBomb() throws {
        let bomb = try TestInputs.fixture("zeros-1g.br")
        #expect(bomb.count < 1024)
        let residentBefore = TestInputs.peakResidentBytes()
        let start = ContinuousClock.now
        #expect(throws: DecompressionError(.limitExceeded(maximum: 16 << 20), coding: .brotli)) {
            try Decompressor(maximumBytes: 16 << 20).decompress(bomb, coding: .brotli)
        }
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(TestInputs.peakResidentBytes() - residentBefore < 256 << 20)
        #expect(Decompressor.looksLikeBrotli(bomb))
    }

    /// One zstd frame that decodes to `count` zero bytes and says so in its header, compressed
    /// a 1 MiB chunk at a time: the zeros are never all in memory.
    static func zstdFrameOfZeros(count: Int) -> [UInt8] {
        let context = ZSTD_createCCtx()
        defer { ZSTD_freeCCtx(context) }
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, 3)
        ZSTD_CCtx_setPledgedSrcSize(context, UInt64(count))
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        var frame: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 64 << 10)
        var remaining = count
        zeros.withUnsafeBufferPointer { chunk in
            scratch.withUnsafeMutableBufferPointer { scratch in
                var done = false
                while !done {
                    let size = min(remaining, chunk.count)
                    remaining -= size
                    let mode = remaining == 0 ? ZSTD_e_end : ZSTD_e_continue
                    var input = ZSTD_inBuffer(src: chunk.baseAddress, size: size, pos: 0)
                    var pending = 1
                    while input.pos < input.size || (mode == ZSTD_e_end && pending != 0) {
                        var output = ZSTD_outBuffer(dst: scratch.baseAddress, size: scratch.count, pos: 0)
                        pending = ZSTD_compressStream2(context, &output, &input, mode)
                        precondition(ZSTD_isError(pending) == 0)
                        frame.append(contentsOf: scratch[..<output.pos])
                    }
                    done = remaining == 0
                }
            }
        }
        return frame
    }
}
