import ParleyCompression
import ParleyHTTP
import Testing

@Suite("gzip and deflate")
struct CompressionTests {
    let text = Array(String(repeating: "Parley negotiates content. ", count: 200).utf8)

    @Test("Round trips through both codings", arguments: [ContentCoding.gzip, .deflate])
    func roundTrip(coding: ContentCoding) throws {
        let compressed = Compressor().compress(text, coding: coding)
        #expect(compressed.count < text.count / 10)
        #expect(try Decompressor().decompress(compressed, coding: coding) == text)
    }

    @Test("gzip magic and zlib headers are recognised")
    func detection() {
        #expect(Decompressor.looksLikeGzip(Compressor().compress(text, coding: .gzip)))
        #expect(Decompressor.looksLikeZlib(Compressor().compress(text, coding: .deflate)))
        #expect(!Decompressor.looksLikeGzip(text))
        #expect(!Decompressor.looksLikeZlib(Array("{\"a\":1}".utf8)))
    }

    @Test("Concatenated gzip members all decompress (RFC 1952 §2.2)")
    func members() throws {
        let joined =
            Compressor().compress(Array("one ".utf8), coding: .gzip)
            + Compressor().compress(Array("two".utf8), coding: .gzip)
        #expect(try Decompressor().decompress(joined, coding: .gzip) == Array("one two".utf8))
    }

    @Test("Raw deflate under the deflate name is accepted")
    func rawDeflate() throws {
        let zlib = Compressor().compress(text, coding: .deflate)
        let raw = Array(zlib.dropFirst(2).dropLast(4))  // strip the zlib header and Adler-32
        #expect(try Decompressor().decompress(raw, coding: .deflate) == text)
    }

    @Test("A bomb stops at the limit; corrupt and truncated data are told apart")
    func failures() {
        let bomb = Compressor(level: 9).compress([UInt8](repeating: 0, count: 4 << 20), coding: .gzip)
        #expect(bomb.count < 10_000)
        #expect(throws: DecompressionError(.limitExceeded(maximum: 1 << 20), coding: .gzip)) {
            try Decompressor(maximumBytes: 1 << 20).decompress(bomb, coding: .gzip)
        }
        let compressed = Compressor().compress(text, coding: .gzip)
        #expect(throws: DecompressionError(.truncated, coding: .gzip)) {
            try Decompressor().decompress(Array(compressed.prefix(compressed.count / 2)), coding: .gzip)
        }
        #expect {
            try Decompressor().decompress([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 3, 0xFF, 0xFF, 0xFF], coding: .gzip)
        } throws: { ($0 as? DecompressionError)?.reason == .corrupt }
    }

    @Test("Content-Encoding tokens")
    func tokens() {
        #expect(ContentCoding(token: "GZIP") == .gzip)
        #expect(ContentCoding(token: "x-gzip") == .gzip)
        #expect(ContentCoding(token: "BR") == .brotli)
        #expect(ContentCoding(token: "zstd") == .zstd)
        #expect(ContentCoding(token: "compress") == nil)
        #expect(ContentCoding.allCases.map(\.rawValue) == ["gzip", "deflate", "br", "zstd", "identity"])
    }
}
