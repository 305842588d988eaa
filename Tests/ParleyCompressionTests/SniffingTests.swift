import Foundation
import HTTPTypes
import Parley
import ParleyHTTP
import ParleyCompression
import Testing

@Suite("Telling coded bodies from bodies stored decoded")
struct SniffingTests {
    /// Bodies a recording stores decoded while its Content-Encoding still says br or zstd (a
    /// browser's HAR export does this).
    static let plainBodies: [String] = [
        #"{"id":7,"name":"Ada"}"#, #"[{"id":7}]"#, "[]", "{}",
        "<!DOCTYPE html><html><head><title>Parley</title></head></html>",
        "<html>", #"<?xml version="1.0" encoding="UTF-8"?><feed/>"#, "Hello, world!\n", "ok", "0", "true", "null",
        "id,name\n7,Ada\n", "name: Ada\nid: 7\n", "---\nkey: value\n", "  {\"indented\": true}", "\u{FEFF}{\"bom\":1}",
        "Parley negotiates content.", "plain text", "# Title\n\nMarkdown.", "@charset \"utf-8\"; body { color: red }",
        "function f() { return 1 }", "PNG is not text", "\"a string\"", "-12.5e3", "%PDF-1.7"
    ]

    @Test("Plain bodies are not taken for br or zstd")
    func plainBodiesAreNotCoded() throws {
        var bodies = Self.plainBodies.map { Array($0.utf8) }
        bodies.append(TestInputs.jsonLike(size: 1 << 20))
        bodies.append(try TestInputs.fixture("api-24k.json"))
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Fixtures")
        let files =
            FileManager.default.enumerator(at: fixtures, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            ?? []
        for file in files where !file.hasDirectoryPath {
            let data = try Data(contentsOf: file)
            if String(data: data, encoding: .utf8) != nil { bodies.append([UInt8](data)) }  // text files only
        }
        #expect(bodies.count > 40)
        for body in bodies {
            #expect(!Decompressor.looksLikeBrotli(body), "\(String(decoding: body.prefix(40), as: UTF8.self))")
            #expect(!Decompressor.looksLikeZstd(body))
        }
    }

    @Test("Bodies that are not text are taken for brotli, so a damaged stream fails as corrupt or truncated")
    func binaryIsBrotli() {
        #expect(Decompressor.looksLikeBrotli([0xFF, 0xD8, 0xFF, 0xE0]))  // a JPEG's start
        #expect(Decompressor.looksLikeBrotli([0x0B, 0x00, 0x80]))  // a cut stream
        #expect(!Decompressor.looksLikeBrotli([]))
        #expect(Decompressor.looksLikeBrotli(Compressor().compress(Array("ok".utf8), coding: .brotli)))
        #expect(Decompressor.looksLikeBrotli(Compressor().compress([], coding: .brotli)))
    }

    @Test(
        "The response pipeline undoes br and zstd, and passes bodies stored decoded",
        arguments: [ContentCoding.brotli, .zstd])
    func pipeline(coding: ContentCoding) throws {
        let json = TestInputs.jsonLike(size: 32 << 10)
        let pipeline = ResponsePipeline(registry: .builtIn, contentCodings: .standard)
        for body in [Compressor().compress(json, coding: coding), json] {
            let response = HTTPResponse(
                status: .ok, headerFields: [.contentType: "text/plain", .contentEncoding: coding.rawValue])
            let undone = try pipeline.contentCodingStep.undo(
                body, fields: response.headerFields, registry: pipeline.registry)
            #expect(undone.body == json)
            #expect(undone.headerFields[.contentEncoding] == nil)
        }
    }
}
