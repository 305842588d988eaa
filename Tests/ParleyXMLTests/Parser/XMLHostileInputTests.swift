import Parley
import ParleyXML
import Testing

/// Generated hostile documents: every node a decoder makes (element, attribute, namespace
/// declaration, text, CDATA section, comment, processing instruction) counts against `maxNodes`,
/// in each of the three ways to read XML.
@Suite struct XMLHostileInputTests {
    static let small = DecodingLimits(maxNodes: 1_000)

    /// The error each way of reading gives for `text` under `limits`.
    func errors(_ text: String, limits: DecodingLimits = small) -> [FormatError?] {
        let bytes = Array(text.utf8)
        return [
            Result { try XMLFormat().decode(bytes, limits: limits) }.error,
            Result { try XML.Document(parsing: bytes, limits: limits) }.error,
            Result { try XML.EventReader(bytes, limits: limits).forEachView { _ in } }.error,
        ]
    }

    /// An empty element with `count` attributes made by `attribute`.
    static func element(_ count: Int, _ attribute: (Int) -> String) -> String {
        "<a " + (0..<count).map(attribute).joined(separator: " ") + "/>"
    }

    static let documents: [(String, String)] = [
        ("attributes", "<r>" + String(repeating: element(100) { "a\($0)=\"\"" }, count: 20) + "</r>"),
        (
            "namespace declarations",
            "<r>" + String(repeating: element(100) { "xmlns:p\($0)=\"u\"" }, count: 20) + "</r>"
        ),
        ("comments", "<r>" + String(repeating: "<!---->", count: 2_000) + "</r>"),
        ("processing instructions", "<r>" + String(repeating: "<?p?>", count: 2_000) + "</r>"),
        ("CDATA sections", "<r>" + String(repeating: "<![CDATA[]]>", count: 2_000) + "</r>"),
        ("texts between elements", "<r>" + String(repeating: "x<a/>", count: 600) + "</r>")
    ]

    @Test(arguments: documents.map(\.0))
    func everyKindOfNodeCountsAgainstMaxNodes(_ kind: String) throws {
        let text = try #require(Self.documents.first { $0.0 == kind }).1
        for error in errors(text) {
            #expect(error?.code == .limitExceeded, "\(kind): \(String(describing: error))")
            #expect(error?.limit?.name == "maxNodes", "\(kind)")
        }
        // The standard limits take each of them.
        for error in errors(text, limits: .standard) { #expect(error == nil, "\(kind): \(String(describing: error))") }
    }

    @Test func aDocumentAtTheLimitIsRead() throws {
        // The root and 9 children of 110 attributes each: 1 + 9 × 111 = 1,000 nodes.
        let children = String(repeating: Self.element(110) { "a\($0)=\"\"" }, count: 9)
        for error in errors("<r>" + children + "</r>") { #expect(error == nil) }
        for error in errors("<r>" + children + "x</r>") { #expect(error?.limit?.name == "maxNodes") }
    }

    // MARK: What libxml2 2.9 pays for with the square of the count

    func expectRefusal(_ text: String) {
        for error in errors(text, limits: .standard) {
            #expect(error?.code == .limitExceeded)
            #expect(error?.limit?.name == "attribute comparisons")
        }
    }

    @Test func attributeHeavyStartTagsAreRefusedBeforeLibxml2ComparesThem() throws {
        // 100,000 attributes on one element took libxml2 20 s (each compared with all before it).
        expectRefusal(Self.element(100_000) { "a\($0)=''" })
        // 20,000 (the corpus's many-attributes.xml) fit, twice that not; declarations count too.
        for error in errors(Self.element(20_000) { "a\($0)=''" }, limits: .standard) { #expect(error == nil) }
        expectRefusal("<r>" + String(repeating: Self.element(20_000) { "a\($0)=''" }, count: 2) + "</r>")
        expectRefusal(Self.element(30_000) { "xmlns:p\($0)='u'" })
        // Tags of up to 64 attributes cost nothing, however many there are.
        let many = "<r>" + String(repeating: Self.element(64) { "a\($0)=''" }, count: 5_000) + "</r>"
        for error in errors(many, limits: .standard) { #expect(error == nil) }
    }

    @Test func manyNamespaceDeclarationsInScopeAreRefused() throws {
        // 100 levels of 100 declarations each, then prefixed children: libxml2 looks each name
        // up through every declaration in scope (800,000 children took 33 s).
        let open = (0..<100).map { level in
            "<e " + (0..<100).map { "xmlns:p\(level)_\($0)=\"u\"" }.joined(separator: " ") + ">"
        }.joined()
        expectRefusal(open + String(repeating: "<p0_0:a/>", count: 300_000) + String(repeating: "</e>", count: 100))
        // The same declarations on siblings are never in scope together.
        let siblings = (0..<100).map { level in
            "<e " + (0..<64).map { "xmlns:p\(level)_\($0)=\"u\"" }.joined(separator: " ") + "><p:a xmlns:p='v'/></e>"
        }.joined()
        for error in errors("<r>" + siblings + String(repeating: "<a/>", count: 100_000) + "</r>", limits: .standard) {
            #expect(error == nil)
        }
    }

    /// Where '<' are dense the scan still finds a long tag after any run of short ones, and does
    /// not count tags inside a comment, CDATA section or instruction, however they sit in the run.
    @Test func theScanFindsLongTagsAmongDenseMarkupAndSkipsCommentsInIt() throws {
        let long = Self.element(30_000) { "a\($0)=''" }
        // Short elements with text of every length from 0 to 400 units before them, so the long tag
        // is reached from every distance; '!' and '?' in text do not start anything.
        let varied = (0..<400).map { "<b>" + String(repeating: $0 % 7 == 0 ? "!" : "t?", count: $0 / 2) + "</b>" }
            .joined()
        expectRefusal("<r>" + varied + long + "</r>")
        expectRefusal("<r>" + String(repeating: "<a/>", count: 5_000) + long + "</r>")
        expectRefusal("<r>" + varied + "<!--" + varied + "-->" + varied + long + varied + "</r>")
        // The same long tag inside a comment, CDATA section or instruction, amid dense markup.
        for (open, close) in [("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?p ", "?>")] {
            let hidden =
                "<r>" + varied + open + String(repeating: "<c/>", count: 300) + long
                + String(repeating: "<c/>", count: 300)
                + close + varied + "</r>"
            for error in errors(hidden, limits: .standard) { #expect(error == nil, "\(open)") }
        }
    }

    @Test func theScanReadsQuotesCommentsCDATAAndWideEncodings() throws {
        // '=' and '>' inside values, and tags inside comments, CDATA and instructions, are not attributes.
        let value = String(repeating: "a=b>", count: 30_000)
        let fake = Self.element(30_000) { "a\($0)=''" }
        let text = "<r x=\"\(value)\" y='\(value)'><!--\(fake)--><![CDATA[\(fake)]]><?p \(fake)?></r>"
        for error in errors(text, limits: .standard) { #expect(error == nil) }
        // UTF-16 (by byte-order mark) is scanned through its ASCII characters.
        let wide = Self.element(30_000) { "a\($0)=''" }
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in wide.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let error = try #require(throws: FormatError.self) { try XMLFormat().decode(utf16) }
        #expect(error.limit?.name == "attribute comparisons")
    }
}

extension Result where Failure == any Error {
    /// The failure as a `FormatError`, `nil` on success.
    var error: FormatError? {
        if case .failure(let error) = self {
            return error as? FormatError ?? FormatError(.malformed, format: "test", "\(error)")
        }
        return nil
    }
}
