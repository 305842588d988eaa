import Foundation
import Parley
import ParleyTestKit
import ParleyXML
import Testing

@Suite struct XMLSecurityTests {
    @Test(arguments: XMLCorpusCase.all(["reject-or-limit", "must-not-resolve", "well-formed", "not-well-formed"])
        .filter { $0.file.hasPrefix("security/") })
    func attackDocumentsAreHarmless(_ entry: XMLCorpusCase) throws {
        let bytes = try entry.bytes()
        let outcome = Result { try XMLFormat().decode(bytes) }
        print("security \(entry.file): \((try? outcome.get()).map { _ in "parsed" } ?? "\(outcome)")")
        switch entry.expect {
        case "reject-or-limit":
            if case .failure(let error) = outcome {
                let code = try #require(error as? FormatError).code
                #expect([.limitExceeded, .malformed].contains(code), "\(error)")
            }
        case "well-formed":
            #expect(throws: Never.self) { try outcome.get() }
        case "not-well-formed":
            #expect(throws: FormatError.self) { try outcome.get() }
        default:
            break
        }
        if case .success(let value) = outcome {
            let text = "\(value)"
            #expect(!text.contains("root:x:0:0"), "/etc/passwd content leaked")
            #expect(text.utf8.count < 10 * bytes.count + 65_536, "expansion beyond the limit")
            if entry.file.contains("xinclude") { #expect(text.contains("xi:include")) }
        }
    }

    /// A real file with a known secret, and every way to point an external entity at it.
    @Test func externalEntitiesNeverReadARealFile() throws {
        let secret = "PARLEY-SECRET-\(UInt64.random(in: 1...UInt64.max))"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-xxe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let secretFile = folder.appendingPathComponent("secret.txt")
        try Data(secret.utf8).write(to: secretFile)
        let dtdFile = folder.appendingPathComponent("evil.dtd")
        try Data("<!ENTITY leak \"\(secret)\">".utf8).write(to: dtdFile)
        // The file is really there and readable: a parser that resolved it would leak the secret.
        #expect(try String(contentsOf: secretFile, encoding: .utf8) == secret)

        let url = secretFile.absoluteString
        let documents = [
            "<!DOCTYPE r [<!ENTITY x SYSTEM \"\(url)\">]><r>&x;</r>",
            "<!DOCTYPE r [<!ENTITY x SYSTEM \"\(secretFile.path)\">]><r>&x;</r>",
            "<!DOCTYPE r [<!ENTITY % p SYSTEM \"\(dtdFile.absoluteString)\"> %p;]><r>&leak;</r>",
            "<!DOCTYPE r SYSTEM \"\(dtdFile.absoluteString)\"><r>&leak;</r>",
            "<!DOCTYPE r [<!ENTITY x SYSTEM \"\(url)\">]><r a=\"&x;\"/>",
            "<r xmlns:xi=\"http://www.w3.org/2001/XInclude\"><xi:include href=\"\(url)\" parse=\"text\"/></r>",
        ]
        for document in documents {
            let bytes = Array(document.utf8)
            if let value = try? XMLFormat().decode(bytes) { #expect(!"\(value)".contains(secret), "\(document)") }
            if let tree = try? XML.Document(parsing: bytes) {
                #expect(!"\(tree)".contains(secret), "\(document)")
                let serialized = String(decoding: try tree.serialized(), as: UTF8.self)
                #expect(!serialized.contains(secret), "\(document)")
            }
            var events: [XML.Event] = []
            try? XML.EventReader(bytes).forEach { events.append($0) }
            #expect(!"\(events)".contains(secret), "\(document)")
        }
    }

    @Test func twentyThousandAttributesParse() throws {
        guard Corpora.directory("xml") != nil else { return print(Corpora.missingMessage("xml")) }
        let entry = XMLCorpusCase(file: "security/many-attributes.xml", expect: "well-formed", root: nil, text: nil,
                                  attributes: [:], note: nil)
        let document = try XML.Document(parsing: try entry.bytes())
        #expect(document.root.attributes.count == 20_000)
    }

    @Test func aDocumentOf23MegabytesParses() throws {
        var text = "<catalog>"
        var index = 0
        while text.utf8.count < 23_000_000 {
            text += "<item id=\"\(index)\"><name>Item number \(index)</name><price>\(index % 100).99</price></item>\n"
            index += 1
        }
        text += "</catalog>"
        let bytes = Array(text.utf8)
        #expect(bytes.count >= 23_000_000)
        let document = try XML.Document(parsing: bytes)
        #expect(document.root.childElements.count == index)
        var count = 0
        try XML.EventReader(bytes).forEach { if case .startElement = $0 { count += 1 } }
        #expect(count == 1 + 3 * index)
    }
}
