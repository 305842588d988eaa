import Foundation
import Parley
import ParleyJSON
import ParleySchema
import ParleyTestKit
import Testing

/// The official JSON-Schema-Test-Suite (`../shared/corpora/json-schema-test-suite`): draft 4 and
/// 2020-12 with their `optional/` and `optional/format/` files (format assertion on for the
/// latter), `remotes/` served as `http://localhost:1234/`. Every failing case must be listed in
/// `known-failures.txt` with its reason, and every listed case must still fail.
@Suite struct JSONSchemaTestSuiteTests {
    static let directory = Corpora.directory("json-schema-test-suite")

    /// The suite's files, relative to its folder (`draft4/ref.json`, `draft2020-12/optional/format/date.json`).
    static let files: [String] = {
        guard let directory else { return [] }
        var files: [String] = []
        for draft in ["draft4", "draft2020-12"] {
            for sub in ["", "/optional", "/optional/format"] {
                let folder = directory.path + "/" + draft + sub
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                files += names.filter { $0.hasSuffix(".json") }.sorted().map { draft + sub + "/" + $0 }
            }
        }
        return files
    }()

    /// The listed failures: case identifier to reason.
    static let knownFailures: [String: String] = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "known-failures.txt")
        let text = (try? String(contentsOf: path, encoding: .utf8)) ?? ""
        var failures: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { continue }
            failures[String(parts[0])] = String(parts[1])
        }
        return failures
    }()

    static let resources: SchemaResources = {
        var resources = SchemaResources()
        if let directory {
            resources.serve(folder: directory.path + "/remotes", under: "http://localhost:1234/") { bytes in
                try JSONFormat().decode(bytes)
            }
        }
        return resources
    }()

    /// The outcome of one file: how many cases ran and which failed.
    struct FileOutcome: Sendable {
        var total = 0
        var failures: [String] = []
    }

    static func run(_ file: String) throws -> FileOutcome {
        let bytes = [UInt8](try Data(contentsOf: directory!.appendingPathComponent(file)))
        guard case .array(let groups) = try JSONFormat().decode(bytes) else { return FileOutcome() }
        var outcome = FileOutcome()
        let dialect: JSONSchema.Dialect? = file.hasPrefix("draft4") ? .draft4 : nil
        let options = JSONSchema.Options(
            dialect: dialect, formatAssertion: file.contains("/format/"),
            resources: resources)
        for group in groups {
            let groupName = group["description"]?.stringValue ?? "?"
            let schema: JSONSchema?
            do {
                schema = try JSONSchema(group["schema"] ?? .bool(true), options: options)
            } catch {
                schema = nil
            }
            for test in group["tests"]?.arrayValue ?? [] {
                outcome.total += 1
                let id = "\(file)|\(groupName)|\(test["description"]?.stringValue ?? "?")"
                guard let schema, let instance = test["data"], let expected = test["valid"]?.boolValue else {
                    outcome.failures.append(id)
                    continue
                }
                let basic = try? schema.validate(instance)
                let flag = try? schema.isValid(instance)
                if basic?.isValid != expected || flag != expected || (basic?.errors.isEmpty ?? false) == !expected {
                    outcome.failures.append(id)
                }
            }
        }
        return outcome
    }

    @Test func corpusIsPresentOrSkippedVisibly() {
        if Self.directory == nil {
            print(Corpora.missingMessage("json-schema-test-suite"))
            return
        }
        #expect(Self.files.count > 100)
    }

    @Test(arguments: files)
    func matchesTheSuiteExceptTheListedFailures(_ file: String) throws {
        let outcome = try Self.run(file)
        let listed = Set(Self.knownFailures.keys.filter { $0.hasPrefix(file + "|") })
        let failed = Set(outcome.failures)
        print("\(file): \(outcome.total - failed.count)/\(outcome.total) passed")
        for id in failed.subtracting(listed).sorted() { Issue.record("fails but is not listed: \(id)") }
        for id in listed.subtracting(failed).sorted() { Issue.record("listed but passes: \(id)") }
    }
}
