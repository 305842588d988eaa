import Foundation
import ParleySchema
import ParleyTestKit
import Testing

/// The JSON-Schema-Test-Suite's regex cases (`optional/ecmascript-regex.json` and
/// `optional/non-bmp-regex.json` of draft 4 and 2020-12): every `pattern` against the strings it is
/// tested with, and every `patternProperties` pattern against the keys, under the suite's verdicts.
@Suite struct ECMAPatternCorpusTests {
    struct Check: Sendable, CustomStringConvertible {
        let file: String
        let description: String
        let pattern: String
        let text: String
        let valid: Bool
    }

    static let directory = Corpora.directory("json-schema-test-suite")
    static let files = ["ecmascript-regex.json", "non-bmp-regex.json"]

    /// The checks of one draft: for `pattern`, the string instances; for `patternProperties` with
    /// `additionalProperties: false` or a typed value, each key of an object instance.
    static func checks(draft: String) throws -> [Check] {
        guard let directory else { return [] }
        var checks: [Check] = []
        for file in files {
            let url = directory.appendingPathComponent("\(draft)/optional/\(file)")
            let groups = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]] ?? []
            for group in groups {
                guard let schema = group["schema"] as? [String: Any],
                      let tests = group["tests"] as? [[String: Any]] else { continue }
                for test in tests {
                    guard let valid = test["valid"] as? Bool else { continue }
                    let name = "\(draft)/\(file): \(group["description"] ?? "") / \(test["description"] ?? "")"
                    if let pattern = schema["pattern"] as? String, let text = test["data"] as? String {
                        checks.append(Check(file: file, description: name, pattern: pattern, text: text, valid: valid))
                    }
                    if let properties = schema["patternProperties"] as? [String: Any], properties.count == 1,
                       let (pattern, subschema) = properties.first, let object = test["data"] as? [String: Any] {
                        // A key that fails the pattern is invalid under additionalProperties: false;
                        // a key that matches is invalid when its value fails the subschema.
                        let closed = schema["additionalProperties"] as? Bool == false
                        let typed = (subschema as? [String: Any])?["type"] as? String == "integer"
                        for (key, value) in object {
                            if closed {
                                checks.append(Check(file: file, description: name, pattern: pattern, text: key,
                                                    valid: valid))
                            } else if typed, !valid, value is String {
                                // An invalid instance whose value is not an integer: its key must match.
                                do {
                                    checks.append(Check(file: file, description: name, pattern: pattern, text: key,
                                                        valid: true))
                                }
                            }
                        }
                    }
                }
            }
        }
        return checks
    }

    @Test func corpusIsPresentOrSkippedVisibly() throws {
        guard Self.directory != nil else {
            print(Corpora.missingMessage("json-schema-test-suite"))
            return
        }
        let twenty = try Self.checks(draft: "draft2020-12")
        let four = try Self.checks(draft: "draft4")
        print("ecmascript-regex and non-bmp-regex: \(twenty.count) checks in draft2020-12, \(four.count) in draft4")
        #expect(twenty.count >= 80)
        #expect(four.count == twenty.count)
    }

    /// `format: "regex"` (2020-12's `optional/format/ecmascript-regex.json` and `regex.json`): a
    /// string is a valid regex exactly when it compiles with `u`; the invalid ones are syntax errors.
    @Test func formatRegexVerdictsHold() throws {
        guard let directory = Self.directory else { return }
        var checked = 0
        for file in ["ecmascript-regex.json", "regex.json"] {
            let url = directory.appendingPathComponent("draft2020-12/optional/format/\(file)")
            let groups = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]] ?? []
            for test in groups.flatMap({ $0["tests"] as? [[String: Any]] ?? [] }) {
                guard let source = test["data"] as? String, let valid = test["valid"] as? Bool else { continue }
                checked += 1
                do {
                    _ = try ECMAPattern(source, unicode: true)
                    #expect(valid, "\(source) compiled but is not a valid ECMA-262 regex")
                } catch {
                    #expect(!valid, "\(source): \(error)")
                    #expect(error.code == .syntax, "\(source): \(error)")
                }
            }
        }
        #expect(checked == 14)
    }

    /// 2020-12 compiles patterns with the `u` flag: every verdict holds.
    @Test func draft202012VerdictsHoldWithUnicode() throws {
        for check in try Self.checks(draft: "draft2020-12") {
            let pattern = try ECMAPattern(check.pattern, unicode: true)
            #expect(try pattern.matches(check.text) == check.valid,
                    "\(check.description): \(check.text.debugDescription)")
        }
    }

    /// Draft 4's optional tests expect Unicode semantics too ("patterns always use unicode
    /// semantics"), so with `u` every verdict holds.
    @Test func draft4VerdictsHoldWithUnicode() throws {
        for check in try Self.checks(draft: "draft4") {
            let pattern = try ECMAPattern(check.pattern, unicode: true)
            #expect(try pattern.matches(check.text) == check.valid,
                    "\(check.description): \(check.text.debugDescription)")
        }
    }

    /// Without `u`, ECMA-262 disagrees with exactly the suite's Unicode cases: `\p{…}` is the literal
    /// `p{…}` and a surrogate pair followed by `*` repeats only its low half.
    @Test func draft4WithoutUnicodeDiffersOnlyInTheUnicodeCases() throws {
        var disagreements: Set<String> = []
        for check in try Self.checks(draft: "draft4") {
            let pattern = try ECMAPattern(check.pattern, unicode: false)
            if try pattern.matches(check.text) != check.valid { disagreements.insert(check.pattern) }
        }
        guard Self.directory != nil else { return }
        #expect(disagreements == ["\\p{Letter}cole", "^\\p{digit}+$", "^🐲*$"])
    }
}
