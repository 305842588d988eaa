import Parley
import ParleyHTTP
import ParleyCompression
import Testing

@Suite("Every coding, both ways")
struct RoundTripTests {
    static let codings: [ContentCoding] = [.gzip, .deflate, .brotli, .zstd]
    static let json = TestInputs.jsonLike(size: 1 << 20)
    static let random = TestInputs.random(count: 256 << 10)

    @Test("Empty, small, 1 MB JSON-like and incompressible bodies round-trip", arguments: codings)
    func roundTrips(coding: ContentCoding) throws {
        for (name, input) in [
            ("empty", []), ("small", Array("Parley".utf8)), ("json", Self.json), ("random", Self.random)
        ] {
            let coded = Compressor().compress(input, coding: coding)
            #expect(Decompressor.looksEncoded(coded, coding: coding), "\(name)")
            #expect(try Decompressor().decompress(coded, coding: coding) == input, "\(name)")
            // Exactly at the limit passes; one byte under it fails.
            #expect(try Decompressor(maximumBytes: input.count).decompress(coded, coding: coding) == input, "\(name)")
            if !input.isEmpty {
                #expect(throws: DecompressionError(.limitExceeded(maximum: input.count - 1), coding: coding)) {
                    try Decompressor(maximumBytes: input.count - 1).decompress(coded, coding: coding)
                }
            }
        }
        #expect(Compressor().compress(Self.json, coding: coding).count < Self.json.count / 3)
        #expect(
            Compressor().compress(Self.random, coding: coding).count < Self.random.count + Self.random.count / 100 + 64)
    }

    @Test("ContentCodings.standard encodes and decodes every token", arguments: codings)
    func throughTheContract(coding: ContentCoding) throws {
        let encoder = try #require(ContentCodings.standard.encoder(for: coding.rawValue.uppercased()))
        #expect(encoder.token == coding.rawValue)
        let coded = encoder.encode(Self.json)
        for token in coding.tokens {
            let decoder = try #require(ContentCodings.standard.decoder(for: token))
            #expect(decoder.looksEncoded(coded))
            #expect(!decoder.looksEncoded(Self.json))
            #expect(try decoder.decode(coded, maximumBytes: 2 << 20) == Self.json)
            #expect { try decoder.decode(coded, maximumBytes: 1 << 10) } throws: {
                ($0 as? ContentDecodingError)?.reason == .limitExceeded(maximum: 1 << 10)
            }
        }
    }

    @Test("The server prefers zstd, br, gzip, deflate; .zlib keeps gzip and deflate only")
    func orders() {
        #expect(ContentCodings.standard.encoders.map(\.token) == ["zstd", "br", "gzip", "deflate"])
        #expect(ContentCodings.standard.decoders.flatMap(\.tokens) == ["gzip", "x-gzip", "deflate", "br", "zstd"])
        #expect(ContentCodings.zlib.decoders.flatMap(\.tokens) == ["gzip", "x-gzip", "deflate"])
        #expect(ContentCodings.zlib.encoders.map(\.token) == ["gzip", "deflate"])
        #expect(ContentCodings.zlib.decoder(for: "br") == nil)
    }

    @Test("Levels are clamped: zstd within RFC 9659's window, brotli 0–11")
    func levels() throws {
        let compressor = Compressor(level: 42, brotliQuality: 99, zstdLevel: 22)
        #expect(compressor.level == 9 && compressor.brotliQuality == 11 && compressor.zstdLevel == 19)
        #expect(Compressor().brotliQuality == 4 && Compressor().zstdLevel == 3)
        let text = Array(Self.json.prefix(64 << 10))
        for coding in Self.codings {
            #expect(try Decompressor().decompress(compressor.compress(text, coding: coding), coding: coding) == text)
        }
    }
}
