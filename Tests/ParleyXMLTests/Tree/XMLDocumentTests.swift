import Parley
import ParleyXML
import Testing

@Suite struct XMLDocumentTests {
    static let feed = Array("""
    <?xml version="1.0"?>
    <!-- generated --><?style href="a.css"?>
    <feed xmlns="http://www.w3.org/2005/Atom" xmlns:x="urn:x" xml:lang="en">
      <title>Example &amp; Co</title>
      <entry x:id="1"><title>One</title><![CDATA[<raw>]]></entry>
      <entry x:id="2"><title>Two</title><!-- note --></entry>
    </feed>
    <?after?>
    """.utf8)

    @Test func keepsNamesNamespacesAttributesAndLeaves() throws {
        let document = try XML.Document(parsing: Self.feed)
        #expect(
            document.prolog == [
                .comment(" generated "), .processingInstruction(target: "style", data: "href=\"a.css\"")
            ])
        #expect(document.epilog == [.processingInstruction(target: "after", data: "")])
        let root = document.root
        #expect(root.name == XML.Name("feed", namespaceURI: "http://www.w3.org/2005/Atom"))
        #expect(
            root.namespaces == [
                XML.Namespace(uri: "http://www.w3.org/2005/Atom"), XML.Namespace(prefix: "x", uri: "urn:x")
            ])
        #expect(root["xml:lang"] == "en")
        let entries = root.children(named: "entry")
        #expect(entries.count == 2)
        #expect(entries[0].attribute("id", namespaceURI: "urn:x") == "1")
        #expect(entries[0].children.last == .cdata("<raw>"))
        #expect(entries[1].children.last == .comment(" note "))
        #expect(root.firstChild(named: "title")?.textContent == "Example & Co")
        #expect(root.children(named: "entry", namespaceURI: "http://www.w3.org/2005/Atom").count == 2)
    }

    @Test func serialisesBackToAnEqualDocument() throws {
        let document = try XML.Document(parsing: Self.feed)
        let again = try XML.Document(parsing: try document.serialized())
        #expect(again == document)
    }

    @Test func escapesWhatItWrites() throws {
        let element = XML.Element("a", attributes: [XML.Attribute("q", value: "\"<&>\t\n")],
                                  children: [.text("1 < 2 & ]]> \r"), .cdata("x]]>y")])
        let text = try element.xmlString()
        #expect(
            text == #"<a q="&quot;&lt;&amp;&gt;&#9;&#10;">1 &lt; 2 &amp; ]]&gt; &#13;<![CDATA[x]]]]><![CDATA[>y]]></a>"#
        )
        let parsed = try XML.Document(parsing: Array(text.utf8)).root
        #expect(parsed.textContent == "1 < 2 & ]]> \rx]]>y")
        #expect(parsed["q"] == "\"<&>\t\n")
    }

    @Test func rejectsWhatXMLCannotHold() {
        for element in [XML.Element("bad name"), XML.Element("a", children: [.comment("a--b")]),
                        XML.Element("a", children: [.text("\u{1}")])] {
            do {
                _ = try element.xmlString()
                Issue.record("wrote \(element)")
            } catch let error as FormatError {
                #expect(error.code == .unsupportedValue)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func evaluatesXPathToNodesAndScalars() throws {
        let document = try XML.Document(parsing: Self.feed)
        let atom = ["a": "http://www.w3.org/2005/Atom", "x": "urn:x"]
        #expect(try document.xpath("/a:feed/a:entry/a:title", namespaces: atom).strings == ["One", "Two"])
        #expect(try document.xpath("//a:entry/@x:id", namespaces: atom).nodes
            == [.attribute(XML.Attribute(XML.Name("id", prefix: "x", namespaceURI: "urn:x"), value: "1")),
                .attribute(XML.Attribute(XML.Name("id", prefix: "x", namespaceURI: "urn:x"), value: "2"))])
        #expect(try document.xpath("count(//a:entry)", namespaces: atom) == .number(2))
        #expect(try document.xpath("string(/a:feed/a:title)", namespaces: atom) == .string("Example & Co"))
        #expect(try document.xpath("boolean(//a:missing)", namespaces: atom) == .boolean(false))
        let second = try document.xpath("//a:entry[2]", namespaces: atom).elements
        #expect(second == [document.root.children(named: "entry")[1]])
        #expect(try document.xpath("//comment()").strings == [" generated ", " note "])
    }

    @Test func xpathWorksOnTreesBuiltInCode() throws {
        let root = XML.Element(XML.Name("r", prefix: "p", namespaceURI: "urn:p"), children: [
            .element(XML.Element("a", children: [.text("x"), .text("y")])),
        ])
        let document = XML.Document(root: root)
        #expect(try document.xpath("/q:r/a", namespaces: ["q": "urn:p"]).strings == ["xy"])
    }

    @Test func rejectsAnInvalidXPathExpression() throws {
        let document = try XML.Document(parsing: Self.feed)
        let error = try #require(throws: FormatError.self) { try document.xpath("//[") }
        #expect(error.code == .malformed)
    }

    /// Text that ends at a tag comes from the parser's pending text, text before a comment,
    /// processing instruction or CDATA section as an event: the nodes are the same.
    @Test func keepsTextNodesAroundCommentsInstructionsAndCDATA() throws {
        let root = try XML.Document(parsing: Array("<r>a<!--c-->b<?p d?>c<![CDATA[x]]>y<e>z</e>\n</r>".utf8)).root
        #expect(
            root.children == [
                .text("a"), .comment("c"), .text("b"), .processingInstruction(target: "p", data: "d"),
                .text("c"), .cdata("x"), .text("y"), .element(XML.Element("e", children: [.text("z")])),
                .text("\n")
            ])
    }

    /// Texts and attribute values up to 15 bytes are made inline, longer ones on the heap: both
    /// read back as written, ASCII or not, on either side of that length.
    @Test func readsShortAndLongTextsAndAttributeValuesAroundTheInlineLength() throws {
        for length in [1, 14, 15, 16, 17, 40] {
            for unit in ["a", "é", "€", "𝄞"] {
                let text = String(repeating: unit, count: max(length / unit.utf8.count, 1))
                let root = try XML.Document(parsing: Array("<r v=\"\(text)\">\(text)<!--\(text)--></r>".utf8)).root
                #expect(root["v"] == text)
                #expect(root.children == [.text(text), .comment(text)])
            }
        }
    }
}
