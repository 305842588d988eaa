import Foundation
import Parley
import ParleyTestKit
import ParleyXML
import Testing

/// Rebuilds an event from a view through its byte-level accessors only (not `XML.Event(view)`),
/// so a comparison with `events()` checks every accessor against the string-based reader.
private func rebuild(_ view: borrowing XML.EventView) -> XML.Event {
    let text = view.withUTF8 { String(decoding: $0, as: UTF8.self) }
    #expect(view.utf8Count == text.utf8.count)
    #expect(view.text == text)
    switch view.kind {
    case .startElement:
        var attributes: [XML.Attribute] = []
        view.attributes.forEach { attribute in
            let value = attribute.withValueBytes { String(decoding: $0, as: UTF8.self) }
            #expect(attribute.value == value)
            attributes.append(XML.Attribute(attribute.name, value: value))
        }
        #expect(attributes.count == view.attributes.count)
        #expect(view.attributes.isEmpty == attributes.isEmpty)
        // Lookups scan the attributes: check the first few (a corpus document has 20,000).
        for (index, attribute) in attributes.prefix(50).enumerated() {
            #expect(view.attributes[index].name == attribute.name)
            // Lookups by name find the first attribute so named.
            let first = attributes.first { $0.name.qualifiedName == attribute.name.qualifiedName }
            #expect(view.attributes[attribute.name.qualifiedName] == first?.value)
            #expect(view.attributes[attribute.name.localName, namespaceURI: attribute.name.namespaceURI] != nil)
        }
        #expect(view.attributes["no-such-attribute"] == nil)
        let namespaces = (0..<view.namespaces.count).map { view.namespaces[$0] }
        #expect(namespaces == view.namespaces.copied())
        let matches = view.isElement(view.name.localName, namespaceURI: view.name.namespaceURI)
        let other = view.isElement(view.name.localName + "x", namespaceURI: view.name.namespaceURI)
        #expect(matches && !other)
        #expect(text.isEmpty && view.target.isEmpty)
        return .startElement(view.name, attributes: attributes, namespaces: namespaces)
    case .endElement:
        #expect(view.attributes.isEmpty && view.namespaces.isEmpty)
        let matches = view.isElement(view.name.localName, namespaceURI: view.name.namespaceURI)
        #expect(matches)
        return .endElement(view.name)
    case .text:
        let matches = view.isElement("")
        #expect(view.name == XML.Name("") && !matches)
        return .text(text)
    case .cdata: return .cdata(text)
    case .comment: return .comment(text)
    case .processingInstruction: return .processingInstruction(target: view.target, data: text)
    }
}

/// The events of `bytes` through the view API, rebuilt accessor by accessor.
private func viewEvents(_ bytes: [UInt8], limits: DecodingLimits = .standard) throws -> [XML.Event] {
    var events: [XML.Event] = []
    try XML.EventReader(bytes, limits: limits).forEachView { events.append(rebuild($0)) }
    return events
}

/// The outcome of a parse as a comparable value: the events before the end, and the error.
private struct Outcome: Equatable {
    var events: [XML.Event] = []
    var error: FormatError?
}

/// Expects the view API and the string API to end a parse alike: the same error after the same
/// events, except that a view may also have seen the start tag whose attribute value, once read,
/// passed `maxExpansionRatio` (the string API reads it before delivering the event).
private func expectSameOutcome(_ bytes: [UInt8], limits: DecodingLimits = .standard,
                               sourceLocation: SourceLocation = #_sourceLocation) {
    let view = outcome(bytes, limits: limits, view: true)
    let string = outcome(bytes, limits: limits, view: false)
    #expect(view.error == string.error, sourceLocation: sourceLocation)
    #expect(Array(view.events.prefix(string.events.count)) == string.events, sourceLocation: sourceLocation)
    let extra = view.events.count - string.events.count
    #expect(
        extra == 0 || (extra == 1 && view.error?.limit?.name == "maxExpansionRatio"), sourceLocation: sourceLocation)
}

private func outcome(_ bytes: [UInt8], limits: DecodingLimits, view: Bool) -> Outcome {
    var result = Outcome()
    do {
        if view {
            try XML.EventReader(bytes, limits: limits).forEachView { result.events.append(rebuild($0)) }
        } else {
            try XML.EventReader(bytes, limits: limits).forEach { result.events.append($0) }
        }
    } catch {
        result.error = error as? FormatError
        #expect(result.error != nil, "\(error)")
    }
    return result
}

@Suite struct XMLEventViewTests {
    static let documents: [String] = [
        "<?p d?><r a=\"1\">x &amp; y<![CDATA[z]]><!--c--><e/></r>",
        // Attributes with entity and character references, and a quote of each kind.
        "<r a=\"x &amp; y\" b='&lt;&#x41;&#66;&gt;' c=\"&quot;q&apos;\" d=\"\"/>",
        // Namespaces: default, prefixed, undeclared default, prefixed attributes.
        """
        <a:feed xmlns:a="urn:a" xmlns="urn:d" a:x="1" y="2"><entry xmlns="" z="3"><a:t a:k="v">t</a:t></entry></a:feed>
        """,
        // Internal entities in text and attributes, text split by references, a character reference.
        """
        <!DOCTYPE r [<!ENTITY e "expanded &amp; more"><!ENTITY n "<i>in</i>">]>
        <r v="&e;!">before &e; middle &#x2014; &n; after &lt;&gt;</r>
        """,
        // Comments and processing instructions around the root, CDATA with markup, whitespace.
        "<!--head--><?xml-stylesheet href=\"s.css\"?>\n<r>\n  <![CDATA[<not> & markup]]>\n  <?pi?>\n</r>\n<!--tail-->",
        // Non-ASCII text and names, line ends normalised.
        "<règle clé=\"été\">ünïcödé\r\nline\r2 — 😀</règle>",
        // Long text across libxml2's internal chunks.
        "<r>" + String(repeating: "abcdefghij&amp;", count: 2_000) + "</r>",
    ]

    @Test func deliversExactlyTheEventsOfTheStringReader() throws {
        for document in Self.documents {
            let bytes = Array(document.utf8)
            let expected = try XML.EventReader(bytes).events()
            #expect(try viewEvents(bytes) == expected, "\(document)")
        }
    }

    @Test func deliversTheDocumentedEvents() throws {
        let bytes = Array("<?p d?><r a=\"1 &amp; 2\">x &amp; y<![CDATA[z]]><!--c--><n:e xmlns:n=\"urn:n\"/></r>".utf8)
        let name = XML.Name("e", prefix: "n", namespaceURI: "urn:n")
        #expect(try viewEvents(bytes) == [
            .processingInstruction(target: "p", data: "d"),
            .startElement(XML.Name("r"), attributes: [XML.Attribute("a", value: "1 & 2")], namespaces: []),
            .text("x & y"), .cdata("z"), .comment("c"),
            .startElement(name, attributes: [], namespaces: [XML.Namespace(prefix: "n", uri: "urn:n")]),
            .endElement(name),
            .endElement(XML.Name("r")),
        ])
    }

    @Test func expandsInternalEntitiesInAttributeValuesOnlyWhenRead() throws {
        let bytes = Array("<!DOCTYPE r [<!ENTITY e \"E\">]><r a=\"&e;&amp;&#65;\" b=\"plain\"/>".utf8)
        var values: [String] = []
        var lookups: [String?] = []
        try XML.EventReader(bytes).forEachView { event in
            guard event.kind == .startElement else { return }
            event.attributes.forEach { values.append($0.value) }
            lookups = [event.attributes["a"], event.attributes["b"], event.attributes["c"],
                       event.attributes["a", namespaceURI: nil], event.attributes["a", namespaceURI: "urn:x"]]
        }
        #expect(values == ["E&A", "plain"])
        #expect(lookups == ["E&A", "plain", nil, "E&A", nil])
    }

    @Test func matchesElementNamesWithoutMakingStrings() throws {
        let bytes = Array("<f:feed xmlns:f=\"urn:f\"><entry/><f:entry/></f:feed>".utf8)
        var matches: [Bool] = []
        try XML.EventReader(bytes).forEachView { event in
            guard event.kind == .startElement else { return }
            matches.append(event.isElement("entry"))
            matches.append(event.isElement("entry", namespaceURI: "urn:f"))
        }
        #expect(matches == [false, false, true, false, false, true])
    }

    @Test func copiesAViewIntoAnEventThatOutlivesIt() throws {
        let bytes = Array("<r a=\"1\"><x>t</x></r>".utf8)
        var copies: [XML.Event] = []
        try XML.EventReader(bytes).forEachView { copies.append(XML.Event($0)) }
        #expect(copies == (try XML.EventReader(bytes).events()))
    }

    @Test(arguments: XMLCorpusCase.all(["well-formed"]))
    func corpusDocumentsGiveTheSameEvents(_ entry: XMLCorpusCase) throws {
        let bytes = try entry.bytes()
        #expect(try viewEvents(bytes) == (try XML.EventReader(bytes).events()))
    }

    @Test(arguments: XMLCorpusCase.all(["not-well-formed", "reject-or-limit", "must-not-resolve"]))
    func corpusFailuresAreTheSame(_ entry: XMLCorpusCase) throws {
        let bytes = try entry.bytes()
        expectSameOutcome(bytes)
    }

    @Test func limitsAndErrorsAreTheSame() throws {
        var depth = DecodingLimits.standard
        depth.maxDepth = 3
        var nodes = DecodingLimits.standard
        nodes.maxNodes = 4
        var expansion = DecodingLimits.standard
        expansion.maxExpansionRatio = 2
        // 40 KB of entity text referenced 30 times: 1.2 MB out of 40 KB in.
        let bomb = "<!DOCTYPE r [<!ENTITY e \"\(String(repeating: "x", count: 40_000))\">]>"
        let references = String(repeating: "&e;", count: 30)
        let cases: [(String, DecodingLimits, String?)] = [
            ("<a><b><c><d/></c></b></a>", depth, "maxDepth"),
            ("<a><b/><c/><d/><e/></a>", nodes, "maxNodes"),
            (bomb + "<r>\(references)</r>", expansion, "maxExpansionRatio"),
            // libxml2 bounds references in attribute values itself, at a lower ratio.
            (bomb + "<r a=\"\(references)\"/>", expansion, nil),
            (bomb + "<r a=\"&e;&e;&e;&e;\"/>", expansion, "maxExpansionRatio"),
            ("<r>\n<a></b></r>", .standard, nil),
            ("<r><a>text", .standard, nil),
            ("", .standard, nil),
            ("<r>&undefined;</r>", .standard, nil),
        ]
        for (document, limits, limit) in cases {
            let bytes = Array(document.utf8)
            expectSameOutcome(bytes, limits: limits)
            let error = try #require(outcome(bytes, limits: limits, view: true).error, "\(document)")
            if let limit {
                #expect(error.code == .limitExceeded && error.limit?.name == limit, "\(error)")
            } else {
                #expect([FormatError.Code.malformed, .truncated].contains(error.code), "\(error)")
            }
        }
    }

    @Test func reportsAnErrorWithLineAndColumnAfterTheEventsBeforeIt() throws {
        var starts = 0
        let error = try #require(throws: FormatError.self) {
            try XML.EventReader(Array("<r>\n<a></b></r>".utf8)).forEachView {
                if $0.kind == .startElement { starts += 1 }
            }
        }
        #expect(starts == 2)
        #expect(error.code == .malformed)
        #expect(error.location?.line == 2)
        #expect(error.location?.column != nil)
    }

    struct Stop: Error {}

    @Test func stopsWhenTheBodyThrows() throws {
        var seen: [XML.EventView.Kind] = []
        #expect(throws: Stop.self) {
            try XML.EventReader(Array("<r><a/>text<b/><c/></r>".utf8)).forEachView { event in
                seen.append(event.kind)
                if event.kind == .text { throw Stop() }
            }
        }
        #expect(seen == [.startElement, .startElement, .endElement, .text])
    }

    /// Short strings come from a cache keyed by their bytes: every length, every byte position
    /// changed in turn, must still read back exactly.
    @Test func shortTextsAndValuesReadBackExactly() throws {
        var expected: [String] = []
        for length in 1...16 {
            let base = String(repeating: "a", count: length)
            expected.append(base)
            for position in 0..<length {
                var bytes = Array(base.utf8)
                bytes[position] = UInt8(ascii: "b")
                expected.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        expected += ["é", "aé", "€", "a€b", "\n    ", "\n  ", "\n    "]
        let document = "<r>" + expected.map { "<e v=\"\($0)\">\($0)</e>" }.joined() + "</r>"
        var texts: [String] = []
        var values: [String] = []
        try XML.EventReader(Array(document.utf8)).forEachView { event in
            switch event.kind {
            case .text: texts.append(event.text)
            case .startElement where event.isElement("e"): values.append(event.attributes["v"] ?? "?")
            default: break
            }
        }
        #expect(texts == expected)
        // Attribute-value normalisation turns the line feed into a space.
        #expect(values == expected.map { $0.replacingOccurrences(of: "\n", with: " ") })
    }

    @Test func readsALargeCatalogueLikeTheCBaseline() throws {
        var text = "<catalog>"
        for index in 0..<5_000 {
            text += "<item id=\"\(index)\"><name>Item &amp; \(index)</name><price>\(index % 100).99</price></item>\n"
        }
        text += "</catalog>"
        let bytes = Array(text.utf8)
        var elements = 0
        var textBytes = 0
        try XML.EventReader(bytes).forEachView { event in
            switch event.kind {
            case .startElement: elements += 1
            case .text: textBytes += event.utf8Count
            default: break
            }
        }
        var stringTextBytes = 0
        try XML.EventReader(bytes).forEach { if case .text(let text) = $0 { stringTextBytes += text.utf8.count } }
        #expect(elements == 1 + 3 * 5_000)
        #expect(textBytes == stringTextBytes)
    }
}
