import Parley
import ParleyXML
import Testing

@Suite struct XMLEventReaderTests {
    @Test func deliversEventsInDocumentOrderWithCoalescedText() throws {
        let events = try XML.EventReader(Array("<?p d?><r a=\"1\">x &amp; y<![CDATA[z]]><!--c--><e/></r>".utf8))
            .events()
        #expect(events == [
            .processingInstruction(target: "p", data: "d"),
            .startElement(XML.Name("r"), attributes: [XML.Attribute("a", value: "1")], namespaces: []),
            .text("x & y"), .cdata("z"), .comment("c"),
            .startElement(XML.Name("e"), attributes: [], namespaces: []), .endElement(XML.Name("e")),
            .endElement(XML.Name("r")),
        ])
    }

    struct Stop: Error {}

    @Test func stopsWhenTheBodyThrows() throws {
        var seen = 0
        #expect(throws: Stop.self) {
            try XML.EventReader(Array("<r><a/><b/><c/></r>".utf8)).forEach { _ in
                seen += 1
                if seen == 2 { throw Stop() }
            }
        }
        #expect(seen == 2)
    }

    @Test func reportsAnErrorAfterTheEventsBeforeIt() throws {
        var starts = 0
        let error = try #require(throws: FormatError.self) {
            try XML.EventReader(Array("<r>\n<a></b></r>".utf8)).forEach { if case .startElement = $0 { starts += 1 } }
        }
        #expect(starts == 2)
        #expect(error.code == .malformed)
        #expect(error.location?.line == 2)
    }
}
