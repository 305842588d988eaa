import Foundation
import ParleyCompression
import Testing

@Suite("Interoperability with the brotli and zstd tools")
struct InteropTests {
    @Test(
        "Bodies the tools made decode",
        arguments: ["api-24k.json.br", "api-24k.json.q4.br", "api-24k.json.zst", "api-24k.json.19.zst"])
    func toolOutputDecodes(name: String) throws {
        let coding: ContentCoding = name.hasSuffix(".br") ? .brotli : .zstd
        let coded = try TestInputs.fixture(name)
        #expect(Decompressor.looksEncoded(coded, coding: coding))
        #expect(try Decompressor().decompress(coded, coding: coding) == TestInputs.fixture("api-24k.json"))
    }

    @Test("Our bodies decode with the tools (brotli, zstd and gzip)", arguments: [ContentCoding.brotli, .zstd, .gzip])
    func ourOutputDecodesWithTheTools(coding: ContentCoding) throws {
        let input = TestInputs.jsonLike(size: 1 << 20, seed: 7)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "parley-interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let coded = directory.appendingPathComponent("body"), decoded = directory.appendingPathComponent("decoded")
        try Data(Compressor().compress(input, coding: coding)).write(to: coded)
        let tool: [String] = switch coding {
        case .brotli: ["brotli", "-d", "-f", "-o", decoded.path, coded.path]
        case .zstd: ["zstd", "-d", "-q", "-f", "-o", decoded.path, coded.path]
        default: ["sh", "-c", "gzip -d -c < '\(coded.path)' > '\(decoded.path)'"]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = tool
        try process.run()
        process.waitUntilExit()
        #expect(
            process.terminationStatus == 0,
            "\(tool.joined(separator: " ")) (make setup installs the brotli and zstd tools)")
        #expect(try [UInt8](Data(contentsOf: decoded)) == input)
    }
}
