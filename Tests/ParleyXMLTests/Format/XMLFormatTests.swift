import FoundationEssentials
import Parley
import ParleyTestKit
import ParleyXML
import Testing

@Suite struct XMLFormatTests {
    let format = XMLFormat()

    func decode(_ text: String, limits: DecodingLimits = .standard) throws -> Value {
        try format.decode(Array(text.utf8), limits: limits)
    }

    /// Values the mapping represents exactly: strings only, single-member root objects.
    static let samples: [Value] = [
        ["user": ["@id": "7", "name": "Ada", "tags": ["a", "b", "c"], "note": "héllo wörld ✓ 𝄞 \"\\ <&> ]]>"]],
        ["root": ["item": ["1", "2", ["nested": ["deeper": ["true", "false"]]]]]],
        ["x:doc": ["@xmlns:x": "urn:x", "@x:kind": "k", "x:part": ["@x:n": "1", "#text": "one\ttwo\r\nthree"]]],
        ["empty": ""],
        ["a": ["@attribute": " spaced\tand\nnewline ", "b": ""]],
    ]

    @Test func conformsToTheFormatContract() {
        FormatConformance.expectConformance(of: format, options: .init(
            samples: Self.samples,
            malformedInputs: [Array("<a>".utf8), Array("<a></b>".utf8), Array("<a x=1/>".utf8), Array("text".utf8)]))
    }

    @Test func mapsAttributesChildrenAndText() throws {
        let value = try decode(#"<user id="7" xml:lang="en"><name>Ada</name><email type="work">a@x</email></user>"#)
        #expect(value == ["user": ["@id": "7", "@xml:lang": "en", "name": "Ada",
                                   "email": ["@type": "work", "#text": "a@x"]]])
    }

    @Test func groupsRepeatedChildrenIntoAnArrayAtTheFirstPosition() throws {
        let value = try decode("<r><a>1</a><b>x</b><a>2</a><a>3</a></r>")
        #expect(value == ["r": ["a": ["1", "2", "3"], "b": "x"]])
        #expect(value["r"]?.objectValue?.keys == ["a", "b"])
    }

    @Test func keepsMixedContentTextWithoutIndentation() throws {
        let value = try decode("<p>\n  Hello <b>world</b> again\n</p>")
        #expect(value == ["p": ["b": "world", "#text": "\n  Hello  again\n"]])
        let indented = try decode("<r>\n  <a>1</a>\n</r>")
        #expect(indented == ["r": ["a": "1"]])
    }

    @Test func dropsOnlyTextThatIsWhitespaceByCharacter() throws {
        // No-break and ideographic spaces are whitespace; a combining mark on a space leaves it one.
        let unicode = try decode("<r>\u{A0}\u{3000}\n<a>1</a> \u{301}<b/>\u{2028}</r>")
        #expect(unicode == ["r": ["a": "1", "b": ""]])
        let significant = try decode("<r>\u{A0}x<a>1</a>\u{3000}</r>")
        #expect(significant == ["r": ["a": "1", "#text": "\u{A0}x"]])
        // A segment is judged whole: whitespace text with a CDATA section after it is kept.
        let joined = try decode("<r> <![CDATA[y]]><!-- c --> z<a/>\n </r>")
        #expect(joined == ["r": ["a": "", "#text": " y z"]])
    }

    /// Text that ends at a tag is read from the parser's pending text, text before a comment,
    /// processing instruction or CDATA section comes as an event: every mix joins in order.
    @Test func joinsTextAroundCommentsInstructionsAndCDATAInOrder() throws {
        #expect(try decode("<r>a<!--c-->b<?p d?>c</r>") == ["r": "abc"])
        #expect(try decode("<r><![CDATA[x]]>y</r>") == ["r": "xy"])
        #expect(try decode("<r>x<![CDATA[ ]]></r>") == ["r": "x "])
        #expect(try decode("<r>  <!--c-->  </r>") == ["r": "    "])
        #expect(try decode("<r>a<b/>c</r>") == ["r": ["b": "", "#text": "ac"]])
        #expect(try decode("<r>  <!--c-->x<b/><!--c-->  <c/>  </r>") == ["r": ["b": "", "c": "", "#text": "  x"]])
        #expect(try decode("<r k=\"v\">t<!--c--></r>") == ["r": ["@k": "v", "#text": "t"]])
        #expect(try decode("<r>\n  <a>1</a><!--c-->\n  <![CDATA[]]>\n</r>") == ["r": ["a": "1"]])
    }

    /// The node limit counts a text that ends at a tag as it counts every other text.
    @Test func countsTextAtTagsAgainstTheNodeLimit() throws {
        let document = "<r>t<a/>u</r>"
        #expect(try decode(document, limits: .init(maxNodes: 4)) == ["r": ["a": "", "#text": "tu"]])
        let error = try #require(throws: FormatError.self) { try decode(document, limits: .init(maxNodes: 3)) }
        #expect(error.code == .limitExceeded)
        #expect(error.limit?.name == "maxNodes")
    }

    @Test func groupsRepeatedChildrenAmongManyNames() throws {
        let names = (0..<40).map { "c\($0)" }
        let body = names.map { "<\($0)>\($0)</\($0)>" }.joined() + "<c3>again</c3><c39>last</c39><c3>third</c3>"
        let value = try decode(#"<r id="1">"# + body + "</r>")
        let object = try #require(value["r"]?.objectValue)
        #expect(object.keys == ["@id"] + names)
        #expect(object["c3"] == ["c3", "again", "third"])
        #expect(object["c39"] == ["c39", "last"])
        #expect(object["c4"] == "c4")
    }

    @Test func readsCDATAAsTextAndDropsCommentsAndInstructions() throws {
        let value = try decode("<?pi data?><r><!-- c --><![CDATA[<x> & y]]> z<?p q?></r><!-- after -->")
        #expect(value == ["r": "<x> & y z"])
    }

    @Test func keepsNamespacePrefixesAndDeclarations() throws {
        let value = try decode(#"<a:feed xmlns:a="urn:a" xmlns="urn:d"><a:title>t</a:title><entry/></a:feed>"#)
        #expect(value == ["a:feed": ["@xmlns:a": "urn:a", "@xmlns": "urn:d", "a:title": "t", "entry": ""]])
    }

    @Test func expandsInternalEntitiesInTextAndAttributes() throws {
        let value = try decode(#"<!DOCTYPE r [<!ENTITY co "Example &amp; Co">]><r t="&co; &lt;">&co;!</r>"#)
        #expect(value == ["r": ["@t": "Example & Co <", "#text": "Example & Co!"]])
    }

    @Test func encodesScalarsAsTextAndNonObjectRootsInsideRoot() throws {
        let bytes = try format.encode(["n": 1, "b": true, "f": 0.5, "z": nil, "s": "a<b"])
        #expect(String(decoding: bytes, as: UTF8.self)
            == #"<?xml version="1.0" encoding="UTF-8"?><root><n>1</n><b>true</b><f>0.5</f><z/><s>a&lt;b</s></root>"#)
        let array = try format.encode([1, [2, 3]])
        #expect(try format.decode(array) == ["root": ["item": ["1", ["item": ["2", "3"]]]]])
    }

    @Test func writesDatesAsTheOtherFormatsDo() throws {
        let bytes = try format.encode([
            "d": .date(Date(timeIntervalSince1970: 1.25)), "y": .date(Date(timeIntervalSince1970: 253_539_713_695))
        ])
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"<?xml version="1.0" encoding="UTF-8"?>"#
                + #"<root><d>1970-01-01T00:00:01.250Z</d><y>10004-05-09T10:14:55Z</y></root>"#
        )
    }

    @Test func rejectsValuesWithoutAnXMLForm() {
        for value: Value in [["bad key": "x"], ["r": ["@a": ["nested"]]], ["r": "\u{0}"], ["r": ["#text": [1]]],
                             ["r": .date(Date(timeIntervalSince1970: 1e300))]] {
            do {
                _ = try format.encode(value)
                Issue.record("encoded \(value)")
            } catch let error as FormatError {
                #expect(error.code == .unsupportedValue)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func reportsLineAndColumnOfMalformedInput() throws {
        let error = try #require(throws: FormatError.self) { try decode("<r>\n  <a></b>\n</r>") }
        #expect(error.code == .malformed)
        #expect(error.location?.line == 2)
        #expect(error.location?.column != nil)
    }

    @Test func reportsTruncatedInput() throws {
        let error = try #require(throws: FormatError.self) { try decode("<r><a>text") }
        #expect(error.code == .truncated || error.code == .malformed)
        #expect(error.location?.line == 1)
    }

    /// libxml2 reads the body about 4,000 bytes at a time: names, attribute values, references,
    /// CDATA and text that cross those boundaries decode as they do in one piece.
    @Test func readsDocumentsLargerThanOneInputChunkWhole() throws {
        var text = "<root xmlns:p=\"urn:p\">"
        var expected: [Value] = []
        for index in 0..<400 {
            // Varying lengths move every construct across the chunk boundaries.
            let name = "element-name-" + String(repeating: "n", count: index % 37)
            let attribute = String(repeating: "v", count: (index * 7) % 53) + "&amp;\(index)"
            let body = String(repeating: "é", count: (index * 11) % 61) + " &lt;\(index)&gt; "
            text += "<p:item p:\(name)=\"\(attribute)\"><![CDATA[\(index)]]>\(body)</p:item>\n  "
            expected.append([
                "@p:\(name)": .string(String(repeating: "v", count: (index * 7) % 53) + "&\(index)"),
                "#text": .string("\(index)" + String(repeating: "é", count: (index * 11) % 61) + " <\(index)> ")
            ])
        }
        text += "</root>"
        #expect(text.utf8.count > 40_000)
        let value = try decode(text)
        #expect(value == ["root": ["@xmlns:p": "urn:p", "p:item": .array(expected)]])
    }

    @Test func reportsTheLocationOfAnErrorPastTheFirstInputChunk() throws {
        let lines = (0..<2_000).map { "  <a n=\"\($0)\">text</a>" }.joined(separator: "\n")
        let error = try #require(throws: FormatError.self) { try decode("<r>\n" + lines + "\n  <b></c>\n</r>") }
        #expect(error.code == .malformed)
        #expect(error.location?.line == 2_002)
        #expect(error.location?.column != nil)
    }

    /// Strings up to 15 bytes are made inline, longer ones on the heap: both, ASCII or not, on
    /// either side of that length, come out as written, as values and as string events.
    @Test func keepsShortAndLongTextsAndAttributeValuesAroundTheInlineLength() throws {
        for length in [0, 1, 14, 15, 16, 17, 40] {
            for unit in ["a", "é", "€", "𝄞"] {
                let text = String(repeating: unit, count: length / unit.utf8.count)
                let document = "<r v=\"\(text)\"><t>\(text)</t></r>"
                #expect(try decode(document) == ["r": ["@v": .string(text), "t": .string(text)]])
                var texts: [String] = []
                try XML.EventReader(Array(document.utf8)).forEach { event in
                    if case .text(let value) = event { texts.append(value) }
                }
                #expect(texts == (text.isEmpty ? [] : [text]))
            }
        }
    }

    /// Children group by qualified name: the same prefix bound to two URIs is one key, two
    /// prefixes of one URI are two; with and without the index of wide elements.
    @Test func groupsChildrenByQualifiedNameWhateverTheirNamespace() throws {
        let rebound =
            #"<r xmlns:p="urn:1"><p:a>1</p:a><q xmlns:p="urn:2"/><p:a xmlns:p="urn:2">2</p:a><x:a "#
                + #"xmlns:x="urn:1">3</x:a></r>"#
        let value = try decode(rebound)
        #expect(
            value == [
                "r": [
                    "@xmlns:p": "urn:1", "p:a": ["1", ["@xmlns:p": "urn:2", "#text": "2"]], "q": ["@xmlns:p": "urn:2"],
                    "x:a": ["@xmlns:x": "urn:1", "#text": "3"]
                ]
            ])
        let names = (0..<20).map { "n\($0)" }
        let wide =
            "<r xmlns:p=\"urn:1\">" + names.map { "<\($0)/><p:\($0)/>" }.joined() + "<p:n3 xmlns:p=\"urn:2\"/><n3/></r>"
        let members = try #require(try decode(wide)["r"]?.objectValue)
        #expect(members.keys == ["@xmlns:p"] + names.flatMap { [$0, "p:" + $0] })
        #expect(members["n3"] == ["", ""])
        #expect(members["p:n3"] == ["", ["@xmlns:p": "urn:2"]])
    }

    @Test func enforcesDepthNodeAndBodyLimits() throws {
        let deep = String(repeating: "<a>", count: 30) + String(repeating: "</a>", count: 30)
        let depth = try #require(throws: FormatError.self) { try decode(deep, limits: .init(maxDepth: 10)) }
        #expect(depth.code == .limitExceeded)
        #expect(depth.limit?.name == "maxDepth")
        let nodes = try #require(throws: FormatError.self) {
            try decode("<r>" + String(repeating: "<a/>", count: 50) + "</r>", limits: .init(maxNodes: 20))
        }
        #expect(nodes.limit?.name == "maxNodes")
        let body = try #require(throws: FormatError.self) { try decode("<r/>", limits: .init(maxBodyBytes: 3)) }
        #expect(body.limit?.name == "maxBodyBytes")
    }

    /// Start and end tags reach the value builder straight from libxml2's callbacks, with their
    /// own checks: each limit stops a decode exactly where it stops the event reader, which counts
    /// the same nodes (the element, each attribute and namespace declaration, each text) and depth.
    @Test func stopsAtTheSameNodeAndDepthLimitsAsTheEventReader() throws {
        let document = #"<r xmlns="urn:r" xmlns:p="urn:p"><a k="1" p:m="2">t</a> <b/>u<p:c><d>x</d></p:c></r>"#
        func outcomes(_ limits: DecodingLimits) -> (value: String?, events: String?) {
            let value: String?
            do { _ = try decode(document, limits: limits); value = nil } catch {
                value = (error as? FormatError)?.limit?.name ?? "\(error)"
            }
            let events: String?
            do { try XML.EventReader(Array(document.utf8), limits: limits).forEachView { _ in }; events = nil } catch {
                events = (error as? FormatError)?.limit?.name ?? "\(error)"
            }
            return (value, events)
        }
        var firstPassing: Int?
        for maxNodes in 1...20 {
            let (value, events) = outcomes(.init(maxNodes: maxNodes))
            #expect(value == events, "maxNodes \(maxNodes)")
            if value == nil && firstPassing == nil { firstPassing = maxNodes }
            if value != nil { #expect(value == "maxNodes") }
        }
        // r, 2 declarations, a, 2 attributes, "t", " " (whitespace between tags counts), b, "u", p:c, d, "x".
        #expect(firstPassing == 13)
        for maxDepth in 1...5 {
            let (value, events) = outcomes(.init(maxDepth: maxDepth))
            #expect(value == events, "maxDepth \(maxDepth)")
            #expect((value == nil) == (maxDepth >= 3), "maxDepth \(maxDepth)")
        }
        #expect(try decode(document, limits: .init(maxDepth: 3, maxNodes: 13))
            == ["r": ["@xmlns": "urn:r", "@xmlns:p": "urn:p", "a": ["@k": "1", "@p:m": "2", "#text": "t"], "b": "",
                      "p:c": ["d": "x"], "#text": "u"]])
    }

    /// A reference in an attribute value is resolved wherever it is, in values of every length
    /// (short ones are looked through by a loop, long ones by `memchr`).
    @Test func resolvesReferencesInAttributeValuesOfEveryLength() throws {
        for length in 0...40 {
            let plain = String(repeating: "v", count: length)
            for (raw, resolved) in [
                (plain, plain), ("&amp;" + plain, "&" + plain), (plain + "&lt;", plain + "<"),
                (
                    String(plain.prefix(length / 2)) + "&#x2014;" + String(plain.dropFirst(length / 2)),
                    String(plain.prefix(length / 2)) + "\u{2014}" + String(plain.dropFirst(length / 2))
                )
            ] {
                #expect(try decode("<r a=\"\(raw)\"/>") == ["r": ["@a": .string(resolved)]], "\(raw)")
            }
        }
    }

    /// An attribute whose entity references expand past the ratio stops the decode with the
    /// expansion limit, however many attributes follow it.
    @Test func stopsAtTheExpansionLimitInAnAttributeValue() throws {
        // 120 KB out of 40 KB in: past 64 KiB + 1 × the input, within libxml2's own amplification bound.
        let entity = String(repeating: "y", count: 40_000)
        let document = "<!DOCTYPE r [<!ENTITY e \"\(entity)\">]><r><s a=\"&e;&e;&e;\" b=\"2\"><t/></s></r>"
        let error = try #require(throws: FormatError.self) { try decode(document, limits: .init(maxExpansionRatio: 1)) }
        #expect(error.limit?.name == "maxExpansionRatio")
        let value = try decode(document, limits: .init(maxExpansionRatio: 100))
        #expect(value["r"]?["s"]?["@a"]?.stringValue?.count == 120_000)
        #expect(value["r"]?["s"]?["@b"] == "2")
        #expect(value["r"]?["s"]?["t"] == "")
    }

    /// An entity loop behind a fan-out of references (the shape FuzzXML found, which libxml2 reports
    /// only after long expansion) is refused when the loop is declared, before anything expands.
    @Test func refusesAnEntityReferenceLoopWhenItIsDeclared() throws {
        let tens = (1...7).map { level in
            "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
        }
        let document = "<!DOCTYPE r [<!ENTITY l0 \"lol\">" + tens.joined()
            + "<!ENTITY l8 \"&l9;" + String(repeating: "&l7;", count: 9) + "\">"
            + "<!ENTITY l9 \"" + String(repeating: "&l8;", count: 10) + "\">]><r a=\"&l9;\"/>"
        let error = try #require(throws: FormatError.self) { try decode(document) }
        #expect(error.code == .malformed)
        #expect(error.message.contains("'l9' refers to itself"))
        // Entities that refer to others without a loop still expand.
        let value = try decode("<!DOCTYPE r [<!ENTITY a \"x\"><!ENTITY b \"&a;&a;\"><!ENTITY c \"&b;&b;\">]><r>&c;</r>")
        #expect(value == ["r": "xxxx"])
    }

    @Test func bothLimitsBoundInternalEntityExpansion() throws {
        // 40 KB of entity text referenced 30 times: 1.2 MB out of 40 KB in.
        let entity = String(repeating: "x", count: 40_000)
        let document = "<!DOCTYPE r [<!ENTITY e \"\(entity)\">]><r>" + String(repeating: "&e;", count: 30) + "</r>"
        let error = try #require(throws: FormatError.self) { try decode(document, limits: .init(maxExpansionRatio: 2)) }
        #expect(error.code == .limitExceeded)
        #expect(try decode(document, limits: .init(maxExpansionRatio: 100))["r"]?.stringValue?.count == 1_200_000)
    }

    @Test func isRoutedByTheRegistryForXMLTypes() throws {
        let registry = Registry(formats: [format])
        for type in ["application/xml", "text/xml", "application/atom+xml", "image/svg+xml", "application/soap+xml"] {
            #expect(registry.decoder(for: try MediaType(parsing: type))?.format.name == "xml", "\(type)")
        }
    }
}

@Suite struct XMLEncodingDetectionTests {
    @Test func charsetParameterDecidesWithoutAByteOrderMark() throws {
        let latin1: [UInt8] = Array("<r>caf".utf8) + [0xE9] + Array("</r>".utf8)
        let value = try XMLFormat().decode(latin1, as: try MediaType(parsing: "text/xml; charset=iso-8859-1"))
        #expect(value == ["r": "café"])
        #expect(throws: FormatError.self) { try XMLFormat().decode(latin1, as: "application/xml") }
    }

    @Test func aUTF8ByteOrderMarkWinsOverTheDeclaration() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><r>é</r>"#.utf8)
        #expect(try XMLFormat().decode(bytes) == ["r": "é"])
    }
}
