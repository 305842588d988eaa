import Parley
import ParleyHTTP
import ParleyCompression
import Testing
import ParleyFixtures

@Suite("Classifying recorded responses")
struct ExchangeCheckerTests {
    let json: RecordedFields = ["Content-Type": "application/json"]

    @Test("A body that decodes is ok and keeps its value")
    func ok() {
        let result = check(exchange(headers: json, body: Array("{\"a\": [1, 2]}".utf8)))
        #expect(result.findings.isEmpty)
        #expect(result.format == "json")
        #expect(result.value == ["a": [1, 2]])
        #expect(!result.fails(strict: true))
    }

    @Test("A decode error carries the format's location")
    func decodeError() {
        let result = check(exchange(headers: json, body: Array("{\"a\": }".utf8)))
        #expect(result.findings.map(\.kind) == [.decodeFailed])
        #expect(result.findings[0].message.contains("byte 6"))
        #expect(result.fails(strict: false))
    }

    @Test("Missing, unknown and malformed content types")
    func contentTypes() {
        let missing = check(exchange(headers: [:], body: Array("{\"a\": 1}".utf8)))
        #expect(missing.findings.map(\.kind) == [.missingContentType])
        #expect(missing.findings[0].message.contains("application/json"))
        // The client cannot decode it either, so the check fails.
        #expect(missing.fails(strict: false))

        let unknown = check(exchange(headers: ["Content-Type": "application/x-bibtex"],
                                     body: Array("@article{x}".utf8)))
        #expect(unknown.findings.map(\.kind) == [.unknownContentType])

        let malformed = check(exchange(headers: ["Content-Type": "application/"], body: Array("{}".utf8)))
        #expect(malformed.findings.map(\.kind) == [.malformedContentType])
        #expect(malformed.fails(strict: false))
    }

    @Test("Mislabelled bodies: JSON labelled HTML warns, HTML labelled JSON fails")
    func mislabelled() {
        let jsonAsHTML = check(exchange(headers: ["Content-Type": "text/html"], body: Array("{\"ok\": true}".utf8)))
        #expect(jsonAsHTML.findings.map(\.kind) == [.mislabelledBody])
        #expect(jsonAsHTML.severity == .warning)

        let htmlAsJSON = check(exchange(headers: json,
                                        body: Array("<!DOCTYPE html><html><body>502</body></html>".utf8)))
        #expect(htmlAsJSON.findings.map(\.kind) == [.mislabelledBody, .decodeFailed])

        var options = CheckOptions(registry: testRegistry)
        options.acceptsMislabelledBodies = true
        let accepted = check(exchange(headers: json, body: Array("<!DOCTYPE html><html><body>502</body></html>".utf8)),
                             options: options)
        #expect(accepted.findings.map(\.kind) == [.mislabelledBody])
        #expect(accepted.format == "text")
    }

    @Test("The formats say what the bytes are", arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0], "image/png"),
        ([0xFF, 0xD8, 0xFF, 0xE0], "image/jpeg"),
        (Array("GIF89a..".utf8), "image/gif"),
        (Array("BM".utf8) + [UInt8](repeating: 0, count: 12) + [40, 0, 0, 0], "image/bmp"),
        (Array(" [1, 2] ".utf8), "application/json"),
        (Array("<?xml version=\"1.0\"?><a/>".utf8), "application/xml"),
        (Array("<!doctype HTML><p>".utf8), "text/html"),
        (Array("<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\">".utf8), "application/xhtml+xml"),
        (Array("bplist00\u{D0}".utf8), "application/x-bplist"),
        (Array("# a user\nname: Ada\nid: 7\n".utf8), "application/yaml"),
        (Array("%PDF-1.7".utf8), "application/pdf"),
        (Array("plain words".utf8), nil),
        (Array("[link](x)".utf8), nil),
    ] as [([UInt8], String?)])
    func sniff(bytes: [UInt8], expected: String?) {
        #expect(testRegistry.sniff(bytes)?.mediaType.description == expected)
    }

    @Test("A JPEG labelled image/png contradicts its label; aliases, an SVG labelled XML and generic labels do not")
    func contradictions() {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
        #expect(testRegistry.mislabelling(of: jpeg, labelledAs: "image/png")?.mediaType == "image/jpeg")
        #expect(testRegistry.mislabelling(of: jpeg, labelledAs: "image/jpg") == nil)
        #expect(testRegistry.mislabelling(of: jpeg, labelledAs: "application/octet-stream") == nil)
        #expect(testRegistry.mislabelling(of: Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8),
                                          labelledAs: "image/svg+xml") == nil)
        let page = Array("<!DOCTYPE html><html></html>".utf8)
        #expect(testRegistry.mislabelling(of: page, labelledAs: "application/vnd.api+json")?.mediaType.essence
                == "text/html")
        #expect(testRegistry.mislabelling(of: page, labelledAs: "text/html") == nil)
        #expect(testRegistry.mislabelling(of: Array("{\"a\": 1}".utf8), labelledAs: "text/plain") == nil)
        #expect(testRegistry.mislabelling(of: Array("{\"a\": 1}".utf8), labelledAs: "application/yaml")
                == nil, "JSON is YAML")
        #expect(testRegistry.mislabelling(of: Array("<plist version=\"1.0\"><dict/></plist>".utf8),
                                          labelledAs: "application/x-plist") == nil)
    }

    @Test("Content-Encoding: gzip decoded, stored-decoded noted, corrupt and unsupported reported")
    func contentEncoding() {
        let body = Array("{\"a\": 1}".utf8)
        let gzipped = Compressor().compress(body, coding: .gzip)
        let coded = check(exchange(headers: ["Content-Type": "application/json", "Content-Encoding": "gzip",
                                             "Content-Length": "\(gzipped.count)"], body: gzipped))
        #expect(coded.findings.isEmpty)
        #expect(coded.value == ["a": 1])

        let deflated = check(exchange(headers: ["Content-Type": "application/json", "Content-Encoding": "deflate"],
                                      body: Compressor().compress(body, coding: .deflate)))
        #expect(deflated.value == ["a": 1])

        let stored = check(exchange(headers: ["Content-Type": "application/json", "Content-Encoding": "gzip",
                                              "Content-Length": "3"], body: body))
        #expect(stored.findings.map(\.kind) == [.storedDecoded])
        #expect(stored.value == ["a": 1])
        #expect(!stored.fails(strict: true))

        var corrupt = gzipped
        corrupt[12] ^= 0xFF
        corrupt[13] ^= 0xFF
        let broken = check(exchange(headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                                    body: corrupt))
        #expect(broken.findings.map(\.kind) == [.corruptEncoding])

        // br and zstd are undone too (ParleyCompression's standard codings); LZW `compress` is not.
        for coding in [ContentCoding.brotli, .zstd] {
            let result = check(exchange(headers: ["Content-Type": "application/json",
                                                  "Content-Encoding": coding.rawValue],
                                        body: Compressor().compress(body, coding: coding)))
            #expect(result.findings.isEmpty)
            #expect(result.value == ["a": 1])
        }
        let lzw = check(exchange(headers: ["Content-Type": "application/json", "Content-Encoding": "compress"],
                                 body: [1, 2, 3]))
        #expect(lzw.findings.map(\.kind) == [.unsupportedEncoding])
    }

    @Test("A decompression bomb stops at the limit")
    func bomb() {
        let bomb = Compressor(level: 9).compress([UInt8](repeating: 0x20, count: 8 << 20), coding: .gzip)
        var options = CheckOptions(registry: testRegistry)
        options.maxDecompressedBytes = 1 << 20
        let result = check(exchange(headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                                    body: bomb),
                           options: options)
        #expect(result.findings.map(\.kind) == [.limitExceeded])
    }

    @Test("Decoder limits come from the registry")
    func limits() {
        let registry = testRegistry.settingLimits(DecodingLimits(maxDepth: 4), forFormat: "json")
        let result = check(exchange(headers: json, body: Array("[[[[[[1]]]]]]".utf8)),
                           options: CheckOptions(registry: registry))
        #expect(result.findings.map(\.kind) == [.limitExceeded])
    }

    @Test("Length mismatches are warnings")
    func lengthMismatch() {
        let result = check(exchange(headers: ["Content-Type": "application/json", "Content-Length": "99"],
                                    body: Array("{}".utf8)))
        #expect(result.findings.map(\.kind) == [.lengthMismatch])
        #expect(result.findings[0].message == "Content-Length is 99 but the stored body has 2 bytes")
    }

    @Test("Charsets: core ones, iconv ones, unknown ones and invalid bytes")
    func charsets() {
        let latin1 = check(exchange(headers: ["Content-Type": "text/plain; charset=iso-8859-1"],
                                    body: [0x63, 0x61, 0x66, 0xE9]))
        #expect(latin1.value == "café")
        let sjis = check(exchange(headers: ["Content-Type": "text/plain; charset=Shift_JIS"],
                                  body: [0x82, 0xB1, 0x82, 0xF1]))
        #expect(sjis.value == "こん")
        let arabic = check(exchange(headers: ["Content-Type": "text/plain; charset=windows-1256"], body: [0xC7]))
        #expect(arabic.value == "\u{0627}")
        let unknown = check(exchange(headers: ["Content-Type": "text/plain; charset=x-no-such"],
                                     body: Array("hi".utf8)))
        #expect(unknown.findings.map(\.kind) == [.unsupportedCharset])
        let invalid = check(exchange(headers: ["Content-Type": "text/plain; charset=shift_jis"], body: [0x41, 0x82]))
        #expect(invalid.findings.map(\.kind) == [.decodeFailed])
    }

    @Test("Statuses: any by default, a filter when asked; no body for HEAD, 204 and 304")
    func statuses() throws {
        let notFound = exchange(status: 404, headers: json, body: Array("{}".utf8))
        #expect(check(notFound).findings.isEmpty)
        // HAR's status 0 (no answer) is a status like any other when no filter is set.
        #expect(check(exchange(status: 0, headers: json, body: Array("{}".utf8))).findings.isEmpty)
        let filtered = CheckOptions(registry: testRegistry, acceptableStatuses: StatusFilter("2xx,304")!)
        #expect(check(notFound, options: filtered).findings.map(\.kind) == [.unacceptableStatus])
        #expect(check(exchange(status: 304, headers: json, body: nil), options: filtered).findings.map(\.kind)
                == [.noBody])
        #expect(check(exchange(method: "HEAD", headers: json, body: Array("{".utf8))).findings.map(\.kind) == [.noBody])
        #expect(check(exchange(status: 204, headers: [:], body: [])).findings.map(\.kind) == [.noBody])
        let partial = check(exchange(status: 206, headers: ["Content-Type": "image/png"], body: [0xAE, 0x21]))
        #expect(partial.findings.map(\.kind) == [.noBody])
        #expect(partial.findings[0].message.hasPrefix("206 Partial Content"))
    }

    @Test("Status filters parse codes, classes and ranges")
    func statusFilter() throws {
        let filter = try #require(StatusFilter("2xx, 304,400-403"))
        #expect([200, 299, 304, 400, 403].allSatisfy(filter.accepts))
        #expect(![199, 300, 404, 500].contains(where: filter.accepts))
        #expect(StatusFilter("2yy") == nil)
        #expect(StatusFilter("") == nil)
    }

    @Test("Severity overrides and strict mode")
    func severities() {
        let unknown = exchange(headers: ["Content-Type": "application/x-bibtex"], body: Array("@a{}".utf8))
        #expect(check(unknown).fails(strict: false))
        let lenient = CheckOptions(registry: testRegistry, severities: [.unknownContentType: .warning])
        #expect(!check(unknown, options: lenient).fails(strict: false))
        #expect(check(unknown, options: lenient).fails(strict: true))
        let quiet = CheckOptions(registry: testRegistry, severities: [.unknownContentType: .note])
        #expect(!check(unknown, options: quiet).fails(strict: true))
    }
}

/// Issue #22, rows 6 and 12: coded bodies in iconv charsets stay within the body limit.
@Suite("Hostile coded and converted bodies")
struct HostileCodedBodyTests {
    @Test("A gzip bomb labelled shift_jis stops at the text format's body limit, before any conversion")
    func gzipBombInACharset() {
        let bomb = Compressor().compress([UInt8](repeating: 0x41, count: 16 << 20), coding: .gzip)
        let registry = testRegistry.settingLimits(DecodingLimits(maxBodyBytes: 1 << 20), forFormat: "text")
        let result = check(exchange(headers: ["Content-Type": "text/plain; charset=shift_jis",
                                              "Content-Encoding": "gzip"], body: bomb),
                           options: CheckOptions(registry: registry))
        #expect(result.findings.map(\.kind) == [.limitExceeded])
        #expect(result.findings.first?.message.contains("\(1 << 20) bytes") == true)
    }

    @Test("Conversion that would pass the body limit stops with a limit, not a made-up invalid byte")
    func conversionLimit() {
        let registry = testRegistry.settingLimits(DecodingLimits(maxBodyBytes: 1_000), forFormat: "text")
        let result = check(exchange(headers: ["Content-Type": "text/plain; charset=tscii"],
                                    body: [UInt8](repeating: 0x82, count: 900)),
                           options: CheckOptions(registry: registry))
        #expect(result.findings.map(\.kind) == [.limitExceeded])
        let fine = check(exchange(headers: ["Content-Type": "text/plain; charset=tscii"],
                                  body: [UInt8](repeating: 0x82, count: 20)))
        #expect(fine.findings.isEmpty)
        #expect((fine.value?.stringValue?.unicodeScalars.count ?? 0) > 20, "each 0x82 expands to several code points")
    }
}
