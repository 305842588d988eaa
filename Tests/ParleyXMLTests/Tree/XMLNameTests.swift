import ParleyXML
import Testing

@Suite struct XMLNameTests {
    @Test func settingAPartChangesOnlyThatCopy() {
        let original = XML.Name("feed", prefix: "atom", namespaceURI: "http://www.w3.org/2005/Atom")
        var copy = original
        copy.prefix = nil
        copy.localName = "entry"
        copy.namespaceURI = "urn:x"
        #expect(original.prefix == "atom" && original.localName == "feed"
                && original.namespaceURI == "http://www.w3.org/2005/Atom")
        #expect(copy == XML.Name("entry", namespaceURI: "urn:x"))
        #expect(copy.qualifiedName == "entry" && original.qualifiedName == "atom:feed")
    }

    @Test func namesWithTheSamePartsAreEqualAndHashAlike() throws {
        let parsed = try XML.Document(parsing: Array(#"<a:r xmlns:a="urn:a"/>"#.utf8)).root.name
        let made = XML.Name("r", prefix: "a", namespaceURI: "urn:a")
        #expect(parsed == made)
        #expect(Set([parsed, made]).count == 1)
        #expect(made != XML.Name("r", namespaceURI: "urn:a"))
        #expect(made != XML.Name("r", prefix: "a"))
        #expect(made != XML.Name("s", prefix: "a", namespaceURI: "urn:a"))
    }
}
