import Parley
import ParleyXML
import Testing

/// A parsed document's elements are views of the parsed records; these tests hold them to the
/// behaviour of elements that hold their fields.
@Suite struct XMLParsedTreeTests {
    /// A document built from the event reader's string events with a plain stack: an independent
    /// path to the tree `XML.Document(parsing:)` should produce.
    static func treeFromEvents(_ bytes: [UInt8], limits: DecodingLimits = .standard) throws -> XML.Document {
        var prolog: [XML.Node] = []
        var epilog: [XML.Node] = []
        var open: [XML.Element] = []
        var root: XML.Element?
        func add(_ node: XML.Node) {
            if open.isEmpty {
                if root == nil { prolog.append(node) } else { epilog.append(node) }
            } else {
                open[open.count - 1].children.append(node)
            }
        }
        try XML.EventReader(bytes, limits: limits).forEach { event in
            switch event {
            case .startElement(let name, let attributes, let namespaces):
                open.append(XML.Element(name, attributes: attributes, namespaces: namespaces))
            case .endElement:
                let element = open.removeLast()
                if open.isEmpty { root = element } else { add(.element(element)) }
            case .text(let text):
                if !open.isEmpty { add(.text(text)) }
            case .cdata(let text): add(.cdata(text))
            case .comment(let text): add(.comment(text))
            case .processingInstruction(let target, let data): add(.processingInstruction(target: target, data: data))
            }
        }
        return XML.Document(root: try #require(root), prolog: prolog, epilog: epilog)
    }

    static let document = Array(
        """
        <?xml version="1.0"?>
        <!DOCTYPE r [<!ENTITY who "Ann &amp; Bob">]>
        <!-- before --><?setup a="1"?>
        <r xmlns="urn:r" xmlns:p="urn:p" lang="en" p:who="&who;">
          <p:item id="1">one &who; two<![CDATA[<raw> & more]]><?tick now?><!-- inside --></p:item>
          <item id="2" note="&#x3C;&#x26;&#x3E;"/>
          <deep><deeper xmlns=""><deepest a="" b="ünïcödé">ünïcödé text that is longer than fifteen bytes\
        </deepest></deeper></deep>
        </r>
        <?after done?><!-- after -->
        """.utf8)

    @Test func equalsATreeBuiltFromEvents() throws {
        let parsed = try XML.Document(parsing: Self.document)
        let built = try Self.treeFromEvents(Self.document)
        #expect(parsed.root.isParsed)
        #expect(!built.root.isParsed)
        #expect(parsed == built)
        #expect(parsed.hashValue == built.hashValue)
        #expect(parsed.root.hashValue == built.root.hashValue)
    }

    @Test func readsEveryKindOfNodeInsideTheRoot() throws {
        let root = try XML.Document(parsing: Self.document).root
        #expect(root.name == XML.Name("r", namespaceURI: "urn:r"))
        #expect(root.namespaces == [XML.Namespace(uri: "urn:r"), XML.Namespace(prefix: "p", uri: "urn:p")])
        #expect(
            root.attributes == [
                XML.Attribute("lang", value: "en"),
                XML.Attribute(XML.Name("who", prefix: "p", namespaceURI: "urn:p"), value: "Ann & Bob")
            ])
        let item = try #require(root.firstChild(named: "p:item"))
        #expect(item.children == [.text("one Ann & Bob two"), .cdata("<raw> & more"),
                                  .processingInstruction(target: "tick", data: "now"), .comment(" inside ")])
        #expect(root.children(named: "item").first?["note"] == "<&>")
        let deepest = try #require(
            root.firstChild(named: "deep")?.firstChild(named: "deeper")?.firstChild(named: "deepest"))
        #expect(deepest.name == XML.Name("deepest"))
        #expect(deepest.attributes.map(\.value) == ["", "ünïcödé"])
        #expect(deepest.textContent == "ünïcödé text that is longer than fifteen bytes")
    }

    @Test func changingAParsedElementChangesOnlyThatCopy() throws {
        let document = try XML.Document(parsing: Self.document)
        var root = document.root
        root.children.append(.text("added"))
        root.attributes.removeAll()
        root.name.localName = "renamed"
        #expect(!root.isParsed)
        #expect(document.root.isParsed)
        #expect(document.root.name.localName == "r")
        #expect(document.root.attributes.count == 2)
        #expect(document.root.children.last != .text("added"))
        #expect(root.children.last == .text("added"))
        #expect(root.children.dropLast() == document.root.children[...])
        // The children that were not changed are still views.
        #expect(root.childElements.allSatisfy { $0.isParsed })

        var item = try #require(document.root.firstChild(named: "p:item"))
        item.namespaces.append(XML.Namespace(prefix: "q", uri: "urn:q"))
        #expect(item.namespaces.count == 1)
        #expect(document.root.firstChild(named: "p:item")?.namespaces.isEmpty == true)
    }

    @Test func copiesOfABuiltElementAreIndependent() {
        let original = XML.Element("a", attributes: [XML.Attribute("x", value: "1")], children: [.text("t")])
        var copy = original
        copy.attributes[0].value = "2"
        copy.children.append(.comment("c"))
        #expect(original.attributes[0].value == "1")
        #expect(original.children == [.text("t")])
        #expect(copy != original)
        copy.attributes[0].value = "1"
        copy.children.removeLast()
        #expect(copy == original)
        #expect(copy.hashValue == original.hashValue)
    }

    @Test func outlivesTheBytesItWasParsedFrom() throws {
        func parse() throws -> XML.Element {
            var bytes = Self.document
            let root = try XML.Document(parsing: bytes).root
            bytes.replaceSubrange(0..<bytes.count, with: repeatElement(UInt8(ascii: " "), count: bytes.count))
            return root
        }
        let root = try parse()
        #expect(root == (try Self.treeFromEvents(Self.document)).root)
    }

    @Test func oneTreeCanBeReadFromManyTasksAtOnce() async throws {
        let document = try XML.Document(parsing: Self.document)
        let expected = try Self.treeFromEvents(Self.document)
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<50).allSatisfy { _ in document == expected && !document.root.textContent.isEmpty }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    @Test func describesItsFieldsNotItsStorage() throws {
        let root = try XML.Document(parsing: Array("<a x=\"1\"><b/></a>".utf8)).root
        let description = String(describing: root)
        #expect(description.contains("name:"))
        #expect(description.contains("children:"))
        #expect(!description.contains("storage"))
        #expect(
            String(describing: root)
                == String(
                    describing: XML.Element(
                        "a", attributes: [XML.Attribute("x", value: "1")],
                        children: [.element(XML.Element("b"))])))
    }

    @Test func wideAndLongDocumentsMatchTheEventTree() throws {
        var text = "<root>"
        for index in 0..<5_000 {
            text += "<e i=\"\(index)\" s=\"\(String(repeating: "v", count: index % 40))\">"
            text += String(repeating: "t", count: index % 70)
            if index % 7 == 0 { text += "<!--c\(index)--><?p \(index)?><![CDATA[\(index)]]>" }
            text += "</e>\n"
        }
        text += "</root>"
        let bytes = Array(text.utf8)
        let parsed = try XML.Document(parsing: bytes)
        #expect(parsed.root.children.count == 10_000)
        #expect(parsed == (try Self.treeFromEvents(bytes)))
    }
}
