import Foundation
import Parley
import ParleyTestKit
import ParleyYAML
import Testing

/// `../shared/corpora/yaml/bombs`: alias bombs, cycles and deep nesting stop with the right
/// error; the honest `many-anchors` document loads.
@Suite struct YAMLBombTests {
    struct Bomb: Sendable, CustomTestStringConvertible {
        var file: String
        var expect: String
        var testDescription: String { "\(file) (\(expect))" }
    }

    static let directory = Corpora.directory("yaml")?.appendingPathComponent("bombs")

    static let bombs: [Bomb] = {
        guard let directory, let data = try? Data(contentsOf: directory.appendingPathComponent("manifest.json")),
            let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]]
        else { return [] }
        return manifest.keys.sorted().map { Bomb(file: $0, expect: manifest[$0]?["expect"] as? String ?? "") }
    }()

    @Test func corpusIsPresentOrSkippedVisibly() {
        if Self.directory == nil {
            print(Corpora.missingMessage("yaml"))
        } else {
            #expect(Self.bombs.count == 9)
        }
    }

    @Test(arguments: bombs)
    func bombBehavesAsTheManifestSays(_ bomb: Bomb) throws {
        let directory = try #require(Self.directory)
        let input = try Data(contentsOf: directory.appendingPathComponent(bomb.file))
        for documents in [YAMLFormat.DocumentSelection.first, .all] {
            let format = YAMLFormat(documents: documents)
            switch bomb.expect {
            case "accept":
                let value = try format.decode(input)
                #expect(value.objectValue != nil || value.arrayValue != nil)
            case "reject-or-limit":
                let error = #expect(throws: FormatError.self) { try format.decode(input) }
                #expect(error?.code == .limitExceeded, "\(bomb.file): \(String(describing: error))")
            case "reject":
                let error = #expect(throws: FormatError.self) { try format.decode(input) }
                #expect(error?.code == .malformed, "\(bomb.file): \(String(describing: error))")
            default:
                Issue.record("unknown expectation \(bomb.expect) for \(bomb.file)")
            }
        }
    }

    /// Found by FuzzYAML: each complex key re-quotes the key nested in it, so its text doubles per
    /// level; 124 bytes of `- ? - ? …` took seconds and megabytes before the key text was counted.
    @Test func nestedComplexKeysStopAtTheExpansionLimit() throws {
        let bomb = Array((String(repeating: "? - ", count: 40) + "x\n").utf8)
        let error = #expect(throws: FormatError.self) { try YAMLFormat().decode(bomb) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit?.name == "maxExpansionRatio")

        let shallow = Array((String(repeating: "? - ", count: 3) + "x\n").utf8)
        let key = #"[{"[{\"[x]\": null}]": null}]"#
        #expect(try YAMLFormat().decode(shallow) == .object(Value.Object([.init(key: key, value: .null)])))
    }

    @Test func deepNestingStopsAtTheConfiguredDepth() throws {
        let input = Array((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8)
        let error = #expect(throws: FormatError.self) {
            try YAMLFormat().decode(input, limits: DecodingLimits(maxDepth: 99))
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit?.name == "maxDepth")
        #expect(try YAMLFormat().decode(input, limits: DecodingLimits(maxDepth: 100)).arrayValue?.count == 1)
    }

    @Test func aliasesCannotExceedTheDepthLimit() {
        // Each level is shallow in the text, but the aliased subtree makes the value deep.
        var text = "a0: &a0 [x]\n"
        for level in 1...10 { text += "a\(level): &a\(level) [*a\(level - 1)]\n" }
        let error = #expect(throws: FormatError.self) {
            try YAMLFormat().decode(Array(text.utf8), limits: DecodingLimits(maxDepth: 8))
        }
        #expect(error?.limit?.name == "maxDepth")
    }

    @Test func aliasExpansionIsMeasuredAgainstTheInputSize() {
        // A 4 KiB scalar aliased 100 times: 400 KiB of text from a 5 KiB document.
        let copies = Array(repeating: "*b", count: 100).joined(separator: ", ")
        let text = "base: &b \(String(repeating: "x", count: 4096))\ncopies: [\(copies)]\n"
        let error = #expect(throws: FormatError.self) {
            try YAMLFormat().decode(Array(text.utf8), limits: DecodingLimits(maxExpansionRatio: 1))
        }
        #expect(error?.limit?.name == "maxExpansionRatio")
        #expect((try? YAMLFormat().decode(Array(text.utf8), limits: DecodingLimits(maxExpansionRatio: 100))) != nil)
    }

    @Test func nodeLimitCountsAliasedNodes() {
        let text = "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nb: [*a, *a, *a]\n"
        let error = #expect(throws: FormatError.self) {
            try YAMLFormat().decode(Array(text.utf8), limits: DecodingLimits(maxNodes: 30))
        }
        #expect(error?.limit?.name == "maxNodes")
    }
}
