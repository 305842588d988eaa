import Foundation
import Parley
import ParleyTestKit
import ParleyXML
import Testing

/// One entry of `corpora/xml/manifest.json`.
struct XMLCorpusCase: Sendable, CustomTestStringConvertible {
    let file: String
    let expect: String
    let root: String?
    let text: String?
    let attributes: [String: String]
    let note: String?

    var testDescription: String { file }

    /// Every manifest entry, or nothing when the corpus is absent.
    static func all(_ expectations: Set<String>) -> [XMLCorpusCase] {
        guard let directory = Corpora.directory("xml"),
            let data = try? Data(contentsOf: directory.appendingPathComponent("manifest.json")),
            let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]]
        else { return [] }
        return manifest.keys.sorted().compactMap { file in
            let entry = manifest[file] ?? [:]
            guard let expect = entry["expect"] as? String, expectations.contains(expect) else { return nil }
            return XMLCorpusCase(
                file: file, expect: expect, root: entry["root"] as? String, text: entry["text"] as? String,
                attributes: entry["attributes"] as? [String: String] ?? [:], note: entry["note"] as? String)
        }
    }

    func bytes() throws -> [UInt8] {
        let directory = try #require(Corpora.directory("xml"))
        return try [UInt8](Data(contentsOf: directory.appendingPathComponent(file)))
    }
}

@Suite struct XMLCorpusTests {
    static let corpusPresent = Corpora.directory("xml") != nil

    @Test func reportsAMissingCorpus() {
        if !Self.corpusPresent { print(Corpora.missingMessage("xml")) }
        #expect(Self.corpusPresent || XMLCorpusCase.all(["well-formed"]).isEmpty)
        // With the corpus there, the manifest must yield cases, or the parameterised tests run none.
        #expect(
            !Self.corpusPresent || !XMLCorpusCase.all(["reject-or-limit"]).isEmpty,
            "no reject-or-limit entries read from the manifest")
    }

    @Test(arguments: XMLCorpusCase.all(["well-formed"]))
    func wellFormedDocumentsParseWithTheRecordedRootTextAndAttributes(_ entry: XMLCorpusCase) throws {
        let bytes = try entry.bytes()
        let document = try XML.Document(parsing: bytes)
        #expect(document == (try XMLParsedTreeTests.treeFromEvents(bytes)), "the parsed tree equals the events' tree")
        if let root = entry.root { #expect(document.root.name.expandedName == root) }
        if let text = entry.text { #expect(document.root.textContent == text) }
        let appliesDefaults = entry.note?.contains("only if the parser applies DTD defaults") ?? false
        for (name, value) in entry.attributes {
            // A default from an ATTLIST is optional: Parley never applies DTD defaults.
            if appliesDefaults && document.root[name] == nil { continue }
            #expect(document.root[name] == value, "attribute \(name)")
        }
        // The value mapping and the event reader accept it too.
        let value = try XMLFormat().decode(bytes)
        #expect(value.objectValue?.keys == [document.root.name.qualifiedName])
        var starts = 0
        try XML.EventReader(bytes).forEach { if case .startElement = $0 { starts += 1 } }
        #expect(starts > 0)
    }

    @Test(arguments: XMLCorpusCase.all(["not-well-formed"]))
    func notWellFormedDocumentsFailWithLineAndColumn(_ entry: XMLCorpusCase) throws {
        let bytes = try entry.bytes()
        let error = try #require(throws: FormatError.self) { try XML.Document(parsing: bytes) }
        #expect([FormatError.Code.malformed, .truncated].contains(error.code), "\(error)")
        #expect(error.location?.line != nil, "\(error)")
        #expect(error.location?.column != nil, "\(error)")
        #expect(throws: FormatError.self) { try XMLFormat().decode(bytes) }
    }

    /// An attack the manifest marks `reject-or-limit` (entity expansion, 100,000-deep nesting, a
    /// 1 MB name) must end in a `FormatError`, `limitExceeded` or `malformed`, through every way in:
    /// the value mapping, the tree and the event reader. A parse that succeeds fails the test and
    /// names the entry point.
    @Test(arguments: XMLCorpusCase.all(["reject-or-limit"]))
    func rejectOrLimitDocumentsAreRefusedOrStoppedByALimit(_ entry: XMLCorpusCase) throws {
        let bytes = try entry.bytes()
        let ways: [(String, () throws -> Void)] = [
            ("XMLFormat().decode", { _ = try XMLFormat().decode(bytes) }),
            ("XML.Document(parsing:)", { _ = try XML.Document(parsing: bytes) }),
            ("XML.EventReader.forEach", { try XML.EventReader(bytes).forEach { _ in } }),
        ]
        for (way, parse) in ways {
            do {
                try parse()
                let rule = "a reject-or-limit document must be rejected or stopped by a limit"
                Issue.record("\(entry.file) was parsed by \(way); \(rule)")
            } catch let error as FormatError {
                #expect([FormatError.Code.limitExceeded, .malformed].contains(error.code), "\(way): \(error)")
            } catch {
                Issue.record("\(way) threw \(type(of: error)), not FormatError: \(error)")
            }
        }
    }

    @Test(arguments: XMLCorpusCase.all(["implementation-defined", "impl-defined"]))
    func implementationDefinedDocumentsGiveTheSameOutcomeEveryTime(_ entry: XMLCorpusCase) throws {
        let bytes = try entry.bytes()
        func outcome() -> String {
            do { return "value \(try XMLFormat().decode(bytes))" } catch { return "error \(error)" }
        }
        let first = outcome()
        print("impl-defined \(entry.file): \(first)")
        #expect(outcome() == first)
    }
}
