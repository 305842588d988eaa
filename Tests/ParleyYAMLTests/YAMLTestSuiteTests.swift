import Foundation
import Parley
import ParleyTestKit
import ParleyYAML
import Testing

/// The yaml-test-suite (`../shared/corpora/yaml`): a case with `.error` must fail, a case with
/// `.json` must decode equal to it, a case with neither must load.
@Suite struct YAMLTestSuiteTests {
    /// One case of the suite, as `index.json` describes it.
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var name: String
        var tags: [String]
        var hasJSON: Bool
        var hasError: Bool
        var testDescription: String { "\(id) \(name)" }

        var isKnownLibYAMLBug: Bool { tags.contains("libyaml-err") }
        var hasDuplicateKey: Bool { tags.contains("duplicate-key") }
    }

    enum Outcome: Equatable {
        case passed
        /// Parley's result is libyaml's own verdict: its raw event loop also rejects this valid
        /// document, or also accepts this invalid one (libyaml 0.2.5 is a YAML 1.1 parser).
        case libyamlVerdict(String)
        case failed(String)
    }

    /// Cases libyaml parses without error but into wrong events (checked against the suite's
    /// `test.event` with PyYAML's `CParser`): the value can only be as wrong as the events.
    static let libyamlWrongEvents: [String: String] = [
        "652Z": "`?foo` inside a flow mapping is read as an explicit-key indicator",
        "HM87-01": "`[?x]` is read as an explicit key instead of the plain scalar `?x`",
        "JEF9-02": "a keep-chomped block scalar of blank lines loses its line break",
        "L24T-01": "a literal scalar's trailing line with spaces is cut",
        "Y2GN": "an anchor name ends at `:`, so `&an:chor value` reads as `:chor value`",
    ]

    static let directory = Corpora.directory("yaml")

    static let cases: [Case] = {
        guard let directory, let data = try? Data(contentsOf: directory.appendingPathComponent("index.json")),
              let index = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] else { return [] }
        return index.keys.sorted().map { id in
            let entry = index[id]!
            return Case(id: id, name: entry["name"] as? String ?? "", tags: entry["tags"] as? [String] ?? [],
                        hasJSON: entry["json"] as? Bool ?? false, hasError: entry["error"] as? Bool ?? false)
        }
    }()

    /// The suite is read with every document of a stream (its JSON lists one value per document).
    static let format = YAMLFormat(documents: .all)

    /// Runs one case and says whether it behaved as the suite expects.
    static func run(_ testCase: Case) -> Outcome {
        guard let directory, let input = try? Data(contentsOf: directory.appendingPathComponent("\(testCase.id).yaml"))
        else {
            return .failed("input unreadable")
        }
        let decoded: Value
        do {
            decoded = try format.decode(input)
        } catch let error as FormatError {
            if testCase.hasError { return .passed }
            // Duplicate keys are rejected by default; such cases must load when duplicates are kept.
            if testCase.hasDuplicateKey, error.code == .malformed, !testCase.hasJSON,
               (try? YAMLFormat(documents: .all, duplicateKeys: .keepAll).decode(input)) != nil {
                return .passed
            }
            if (try? YAMLFormat.countEvents(in: Array(input))) == nil {
                return .libyamlVerdict("libyaml also rejects this valid YAML: \(error)")
            }
            return .failed("threw \(error)")
        } catch {
            return .failed("threw a non-FormatError \(error)")
        }
        if testCase.hasError {
            if (try? YAMLFormat.countEvents(in: Array(input))) != nil {
                return .libyamlVerdict("libyaml also accepts this invalid YAML")
            }
            return .failed("accepted invalid YAML as \(decoded)")
        }
        guard testCase.hasJSON else { return .passed }
        guard let json = try? Data(contentsOf: directory.appendingPathComponent("\(testCase.id).json")),
              let documents = try? JSONReference.values(in: json) else { return .failed("expected JSON unreadable") }
        let expected: Value = documents.count == 1 ? documents[0] : documents.isEmpty ? .null : .array(documents)
        return JSONReference.matches(decoded, expected) ? .passed : .failed("decoded \(decoded), expected \(expected)")
    }

    @Test(arguments: cases)
    func caseBehavesAsTheSuiteExpects(_ testCase: Case) {
        let outcome = Self.run(testCase)
        if case .libyamlVerdict = outcome { return }
        if testCase.isKnownLibYAMLBug || Self.libyamlWrongEvents[testCase.id] != nil {
            // libyaml itself gets these wrong (tag `libyaml-err`, or wrong events): either outcome is accepted.
            withKnownIssue(isIntermittent: true) {
                #expect(outcome == .passed, "\(testCase.id): \(outcome)")
            }
        } else {
            #expect(outcome == .passed, "\(testCase.id): \(outcome)")
        }
    }

    @Test func reportsThePassRate() {
        guard Self.directory != nil else {
            print(Corpora.missingMessage("yaml"))
            return
        }
        var passed = 0
        var verdicts: [String] = []
        var wrongEvents: [String] = []
        var knownBugs: [String] = []
        var failures: [String] = []
        for testCase in Self.cases {
            let outcome = Self.run(testCase)
            if testCase.isKnownLibYAMLBug {
                knownBugs.append("\(testCase.id)=\(outcome == .passed ? "pass" : "fail")")
            }
            switch outcome {
            case .passed: passed += 1
            case .libyamlVerdict: verdicts.append(testCase.id)
            case .failed:
                if testCase.isKnownLibYAMLBug { continue }
                if Self.libyamlWrongEvents[testCase.id] != nil {
                    wrongEvents.append(testCase.id)
                } else {
                    failures.append(testCase.id)
                }
            }
        }
        let withJSON = Self.cases.filter { $0.hasJSON && !$0.hasError }.count
        let withError = Self.cases.filter(\.hasError).count
        print(
            "yaml-test-suite: \(passed)/\(Self.cases.count) cases pass"
                + " (\(withJSON) with JSON, \(withError) errors, \(Self.cases.count - withJSON - withError) load-only);"
                + " \(verdicts.count) follow libyaml's own verdict "
                + "(\(verdicts.filter { id in Self.cases.contains { $0.id == id && $0.hasError } }.count) invalid ones "
                + "it accepts,"
                + " the rest valid ones it rejects) [\(verdicts.joined(separator: " "))];"
                + " \(wrongEvents.count) get wrong events from libyaml [\(wrongEvents.joined(separator: " "))];"
                + " libyaml-err cases [\(knownBugs.joined(separator: " "))];"
                + " failing for Parley's own reasons: \(failures.isEmpty ? "none" : failures.joined(separator: ", "))")
        #expect(Self.cases.count > 0)
        #expect(failures.isEmpty)
    }
}
