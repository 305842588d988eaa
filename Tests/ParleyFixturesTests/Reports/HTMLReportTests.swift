import Foundation
import Parley
import ParleyFixtures
import Testing

/// The HTML report's writer: escaping in every context, size caps, and the page's structure.
/// Browser behaviour (filters, expansion, no script running) is tested in Tests/Browser.
@Suite("HTML report")
struct HTMLReportTests {
    static let payload = "</script><script>alert('x')</script></textarea><img src=x onerror=alert(1)>"

    /// The options `parley check --report html` uses.
    static var options: CheckOptions {
        var options = CheckOptions(registry: testRegistry)
        options.keepsDetails = true
        return options
    }

    /// The page for `checks`, rendered by the reporter `parley check --report html` uses.
    static func page(_ checks: [RecordingCheck], limits: HTMLReportLimits = HTMLReportLimits()) -> String {
        var lines: [String] = []
        var reporter = HTMLReporter(strict: false,
                                    run: ReportRun(commandLine: ["parley", "check", payload])) { lines.append($0) }
        var summary = CheckSummary()
        for check in checks {
            summary.add(check)
            reporter.record(check)
        }
        reporter.finish(summary)
        return lines.joined(separator: "\n")
    }

    static func page(of results: [ExchangeResult], limits: HTMLReportLimits = HTMLReportLimits()) -> String {
        var lines: [String] = []
        var reporter = HTMLReporter(strict: false, run: ReportRun(), limits: limits) { lines.append($0) }
        let check = RecordingCheck(path: "memory", kind: .har, byteCount: 0, exchanges: results, readError: nil,
                                   isSkipped: false)
        var summary = CheckSummary()
        summary.add(check)
        reporter.record(check)
        reporter.finish(summary)
        return lines.joined(separator: "\n")
    }

    /// The folder of hostile recordings the browser tests render too.
    static var hostileFolder: String {
        fixturesFolder.deletingLastPathComponent().appendingPathComponent("Tests/Browser/hostile").path
    }

    /// The JSON arrays of the page's row blocks, parsed.
    static func rowBlocks(_ page: String, class name: String = "parley-rows") throws -> [Any] {
        var rows: [Any] = []
        var rest = page[...]
        while let start = rest.range(of: "<script type=\"application/json\" class=\"\(name)\""),
              let close = rest[start.upperBound...].range(of: ">"),
              let end = rest[close.upperBound...].range(of: "</script>") {
            let json = Data(rest[close.upperBound..<end.lowerBound].utf8)
            rows += try #require(try JSONSerialization.jsonObject(with: json) as? [Any])
            rest = rest[end.upperBound...]
        }
        return rows
    }

    static func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test("Text is escaped for HTML text and attributes; controls and bidirectional overrides show as escapes")
    func escapesText() {
        #expect(HTMLText.escaped("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(HTMLText.escaped("a\u{202E}b\u{0}c\u{1B}d\u{FEFF}e\u{2028}")
                == "a\\u{202E}b\\u{0}c\\u{1B}d\\u{FEFF}e\\u{2028}")
        #expect(HTMLText.escaped("one\ntwo\tthree\r\n") == "one\\u{A}two\\u{9}three\\u{D}\\u{A}")
        #expect(HTMLText.escaped("one\ntwo\tthree\r\n", keepingLines: true) == "one\ntwo\tthree\n")
        #expect(HTMLText.escaped("Zürich ✓ 𝄞") == "Zürich ✓ 𝄞")
        // ASCII text takes a byte-wise path; the same text with one non-ASCII letter, the scalar path.
        let ascii = "<b a='1'>\u{7F}\u{0}&</b>\r\n"
        #expect(HTMLText.escaped(ascii) == "&lt;b a=&#39;1&#39;&gt;\\u{7F}\\u{0}&amp;&lt;/b&gt;\\u{D}\\u{A}")
        #expect(HTMLText.escaped(ascii + "é") == HTMLText.escaped(ascii) + "é")
        #expect(HTMLText.escaped(ascii + "é", keepingLines: true) == HTMLText.escaped(ascii, keepingLines: true) + "é")
    }

    @Test("JSON inside a script element escapes <, >, &, U+2028 and U+2029, and parses back to the same text")
    func escapesScriptJSON() throws {
        let text = Self.payload + "<!-- & \u{2028}\u{2029} \"quoted\" \\ \u{1} é"
        let quoted = HTMLText.scriptJSONString(text)
        for forbidden in ["<", ">", "&", "\u{2028}", "\u{2029}"] { #expect(!quoted.contains(forbidden)) }
        #expect(quoted.contains("\\u003c/script\\u003e") && quoted.contains("\\u2028") && quoted.contains("\\u0026"))
        let parsed = try JSONSerialization.jsonObject(with: Data("[\(quoted)]".utf8)) as? [String]
        #expect(parsed == [text])
    }

    @Test("A hostile recording's markup stays text: the only scripts are the page's own, no handler, link or textarea")
    func hostileRecordingStaysText() async throws {
        let files = try FixtureFiles.discover([Self.hostileFolder])
        var checks: [RecordingCheck] = []
        await FixtureChecker(options: Self.options).run(files) { checks.append($0) }
        #expect(checks.flatMap(\.exchanges).count == 8)
        let page = Self.page(checks)
        let blocks = Self.occurrences(of: "<script type=\"application/json\"", in: page)
        #expect(Self.occurrences(of: "<script", in: page) == blocks + 1)
        #expect(Self.occurrences(of: "</script>", in: page) == blocks + 1)
        for needle in ["<img src=x", "<textarea", "</textarea", "href=\"javascript", "<svg xmlns", "\u{202E}",
                       "\u{2028}"] {
            #expect(!page.contains(needle), "\(needle)")
        }
        #expect(page.contains("&lt;/script&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        #expect(page.contains("javascript:alert(document.domain)//&lt;/script&gt;"))
        #expect(page.contains("\\u{202E}evil"))
        // Every href is the page's own anchor; every src a data URI of an inline image type.
        for match in page.matches(of: /href="([^"]*)"/) {
            #expect(["#summary", "#exchanges-title"].contains(String(match.1)))
        }
        for match in page.matches(of: /src="([^"]*)"/) { #expect(String(match.1).hasPrefix("data:image/png;base64,")) }
        // The pinned snapshot's mismatch is shown side by side, the differing path marked.
        #expect(page.contains("<h5>Expected (subset snapshot)</h5>") && page.contains("<li class=\"diff\">"))
        // The mislabelled HTML page says what it really is.
        #expect(page.contains("but the bytes are <code>text/html</code>"))
    }

    @Test("The page: a doctype, a policy allowing only its own script, column headers, and every row as JSON")
    func structure() throws {
        let results = (0..<250).map { index in
            var result = check(exchange(headers: ["Content-Type": "application/json"],
                                        body: Array("{\"n\":\(index)}".utf8)), options: Self.options)
            result.index = index
            return result
        }
        let page = Self.page(of: results)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("content=\"default-src 'none'; img-src data:; style-src 'nonce-"))
        #expect(Self.occurrences(of: "<th scope=\"col\">", in: page) == 8 + 2)  // the table and the outcome counts
        #expect(Self.occurrences(of: "<tbody data-row=", in: page)
                == 100)      // the first page, readable without script
        let rows = try #require(try Self.rowBlocks(page) as? [[String: Any]])
        #expect(rows.count == 250)
        #expect(rows.map { $0["x"] as? Int } == Array(0..<250))
        // Rows past the first page: their row and details HTML, in blocks that name their first row.
        let html = try #require(try Self.rowBlocks(page, class: "parley-html") as? [[String]])
        #expect(html.count == 150 && html.allSatisfy { $0.count == 2 })
        #expect(html[0][0].contains("<th scope=\"row\"><span class=\"file\">memory</span>#100</th>"))
        #expect(page.contains("class=\"parley-html\" data-first=\"100\">"))
        #expect(page.contains("<td data-outcome=\"ok\">250</td>"))
        #expect(page.contains("https://example.org/x") && !page.contains("src=\"http") && !page.contains("href=\"http"))
    }

    @Test("A 50 MB text body makes a small page that says what was cut")
    func capsLargeBodies() {
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 50_000_000)
        let result = check(exchange(headers: ["Content-Type": "text/plain; charset=utf-8"], body: big),
                           options: Self.options)
        #expect(result.detail?.body.count == CheckOptions(registry: testRegistry).maxDetailBodyBytes)
        let page = Self.page(of: [result])
        #expect(page.utf8.count < 200_000)
        #expect(page.contains("… cut: showing the first 16,384 characters of 50.0 MB"))
    }

    @Test("Trees stop at their node limit, CSV at 100 records, and large images are not inlined")
    func capsPreviews() {
        let array = "[" + (0..<5_000).map(String.init).joined(separator: ",") + "]"
        let tree = check(exchange(headers: ["Content-Type": "application/json"], body: Array(array.utf8)),
                         options: Self.options)
        #expect(Self.page(of: [tree]).contains("… cut: 4001 more members not shown, with what they hold (the preview " +
                                               "shows 1000 values)"))
        // A wide container costs only what is shown: a million members render in a moment.
        let million = ValuePreview(.array(Array(repeating: .integer(1), count: 1_000_000)), limits: HTMLReportLimits())
        let wide = ExchangeResult(path: "memory", index: 0, method: "GET", url: "", status: 200,
                                  contentType: "application/json", format: "json", bodyBytes: 1, findings: [],
                                  value: nil,
                                  detail: ExchangeDetail(requestFields: [:], responseFields: [:], reason: "", body: [1],
                                                         bodyByteCount: 1, preview: million))
        let clock = ContinuousClock()
        let started = clock.now
        #expect(Self.page(of: [wide]).contains("… cut: 999001 more members not shown"))
        #expect(clock.now - started < .seconds(2))

        let csv = "a,b\r\n" + (0..<500).map { "\($0),x\r\n" }.joined()
        let table = check(exchange(headers: ["Content-Type": "text/csv; header=present"], body: Array(csv.utf8)),
                          options: Self.options)
        let csvPage = Self.page(of: [table])
        #expect(csvPage.contains("… cut: showing the first 100 of 500 records"))
        #expect(Self.occurrences(of: "<tr><td>", in: csvPage) == 100)

        let pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg"
            + "=="
        let png: [UInt8] = Array(Data(base64Encoded: pngBase64)!)
        let image = check(exchange(headers: ["Content-Type": "image/png"], body: png), options: Self.options)
        #expect(Self.page(of: [image]).contains("src=\"data:image/png;base64,"))
        var small = HTMLReportLimits()
        small.maxImageBytes = 10
        let notInlined = Self.page(of: [image], limits: small)
        #expect(!notInlined.contains("src=\"data:") && notInlined.contains("Not inlined: larger than 10 B."))
    }

    @Test("Past the page's preview budget, exchanges show findings and fields but no body")
    func previewBudget() {
        var limits = HTMLReportLimits()
        limits.maxPreviewCharactersInReport = 2_000
        let results = (0..<300).map { index in
            var result = check(exchange(headers: ["Content-Type": "text/plain"], body: Array("hello \(index)".utf8)),
                               options: Self.options)
            result.index = index
            return result
        }
        let page = Self.page(of: results, limits: limits)
        #expect(page.contains("hello 0"))
        #expect(!page.contains("hello 299"))
        #expect(page.contains("Preview left out: the page's preview budget (2.0 kB) is used up."))
    }

    @Test("The checker keeps details only when asked")
    func detailsOnlyWhenAsked() {
        let plain = check(exchange(headers: ["Content-Type": "application/json"], body: Array("{}".utf8)))
        #expect(plain.detail == nil)
        let kept = check(exchange(headers: ["Content-Type": "application/json"], body: Array("{}".utf8)),
                         options: Self.options)
        #expect(kept.detail?.preview?.root == .object(count: 0, members: []))
        #expect(kept.detail?.responseFields["Content-Type"] == "application/json")
    }

    /// A JSON body of `count` objects `{"id": n, "name": "item n"}`.
    static func catalogue(_ count: Int) -> [UInt8] {
        Array(("[" + (0..<count).map { "{\"id\":\($0),\"name\":\"item \($0)\"}" }.joined(separator: ",") + "]").utf8)
    }

    @Test("A large body's detail keeps only the tree preview, with the real counts, and the page says what it elides")
    func largeBodyKeepsABoundedPreview() throws {
        let result = check(exchange(headers: ["Content-Type": "application/json"], body: Self.catalogue(100_000)),
                           options: Self.options)
        let preview = try #require(result.detail?.preview)
        // The root and 333 objects of three values each: the report's 1,000 values, no more.
        #expect(preview.nodeCount == 1_000)
        guard case .array(let count, let items) = preview.root else { Issue.record("not an array"); return }
        #expect(count == 100_000 && items.count == 333)
        #expect(preview.elidedCount == 100_000 - 333)
        #expect(items.allSatisfy { $0.memberCount == 2 })
        let page = Self.page(of: [result])
        #expect(page.utf8.count < 300_000)
        #expect(page.contains("array of 100000"))
        #expect(page.contains("<li class=\"cut\">… 99,667 more not shown</li>"))
        #expect(page.contains("… cut: 99667 more members not shown, with what they hold (the preview shows 1000 " +
                              "values)"))
        #expect(page.contains("item 332") && !page.contains("item 333"))
    }

    @Test("Strings in a tree keep their first characters and say their real size; bytes keep only their size")
    func stringsInATreeAreCut() throws {
        let long = String(repeating: "é", count: 500_000)   // 1,000,000 bytes of UTF-8
        let value: Value = ["text": .string(long), "data": .bytes([UInt8](repeating: 7, count: 300_000))]
        let preview = ValuePreview(value, limits: HTMLReportLimits())
        guard case .string(let kept, let byteCount)? = preview.root["text"] else { Issue.record("no text"); return }
        #expect(kept.count == 1_000 && byteCount == 1_000_000)
        #expect(preview.root["data"] == .bytes(count: 300_000))
        let result = ExchangeResult(path: "memory", index: 0, method: "GET", url: "", status: 200,
                                    contentType: "application/json", format: "json", bodyBytes: 1, findings: [],
                                    value: nil,
                                    detail: ExchangeDetail(requestFields: [:], responseFields: [:], reason: "",
                                                           body: [1],
                                                           bodyByteCount: 1, preview: preview))
        let page = Self.page(of: [result])
        #expect(page.contains("… cut at 1,000 characters of 1.0 MB"))
        #expect(page.contains("300.0 kB of data"))
        #expect(page.utf8.count < 100_000)
    }

    @Test("A preview stops at the tree's depth but keeps the count of what is below")
    func depthIsCut() {
        var limits = HTMLReportLimits()
        limits.maxTreeDepth = 2
        let preview = ValuePreview(["a": ["b": ["c": 1, "d": 2]]], limits: limits)
        #expect(preview.root["a"]?["b"] == .object(count: 2, members: []))
        #expect(preview.nodeCount == 3 && preview.elidedCount == 2)
    }

    @Test("A snapshot mismatch keeps previews of both sides, not the pinned value whole")
    func snapshotSidesArePreviews() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("big.har").path
        let body = String(decoding: Self.catalogue(5_000), as: UTF8.self)
        let har = """
            {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
             {"startedDateTime": "2026-11-20T10:00:00.000Z", "time": 1,
              "request": {"method": "GET", "url": "https://example.org/items", "httpVersion": "HTTP/1.1", "headers": [],
                          "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
              "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                           "headers": [{"name": "Content-Type", "value": "application/json"}], "cookies": [],
                           "content": {"size": \(body.utf8.count), "mimeType": "application/json",
                                       "text": \(HTMLText.scriptJSONString(body))},
                           "redirectURL": "", "headersSize": -1, "bodySize": -1},
              "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}
            """
        try har.write(toFile: path, atomically: true, encoding: .utf8)
        let pinned: Value = .array((0..<6_000).map { (n: Int) -> Value in
            ["id": .integer(Int64(n)), "name": .string("item \(n)")]
        })
        try Snapshot(entries: [.init(index: 0, match: .exact, value: pinned)]).write(for: path)
        let check = FixtureChecker(options: Self.options).check(FixtureFile(path: path, isExplicit: true))
        let result = try #require(check.exchanges.first)
        #expect(result.value == nil)
        let snapshot = try #require(result.detail?.snapshot)
        #expect(snapshot.expected.nodeCount == 1_000 && snapshot.expected.root.memberCount == 6_000)
        #expect(result.detail?.preview?.nodeCount == 1_000 && result.detail?.preview?.root.memberCount == 5_000)
        let page = Self.page(of: [result])
        #expect(page.contains("array of 6000") && page.contains("array of 5000"))
    }
}
