import Foundation
import Testing

/// The `parley` executable end to end: stdout, stderr and the exit codes 0–3 of DESIGN.md.
@Suite struct CommandLineTests {
    @Test func negotiatePrintsTheOfferExactlyAsGiven() throws {
        let result = try ParleyProcess.run(["negotiate", "--accept", "application/json, application/yaml;q=0.9",
                                            "Application/JSON", "application/yaml; charset=utf-8"])
        #expect(result.status == 0)
        #expect(result.stdout == "Application/JSON\n")
    }

    @Test func negotiateWithoutAcceptTakesTheFirstOffer() throws {
        let result = try ParleyProcess.run(["negotiate", "text/csv", "application/json"])
        #expect(result.stdout == "text/csv\n")
    }

    @Test func negotiateExitsThreeWhenNothingIsAcceptable() throws {
        let result = try ParleyProcess.run(["negotiate", "--accept", "image/*", "application/json"])
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("nothing acceptable"))
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try ParleyProcess.run(["negotiate", "--languages", ""]).status == 2)
        #expect(try ParleyProcess.run(["negotiate", "--accept", "*/*", "not a type"]).status == 2)
        #expect(try ParleyProcess.run(["no-such-command"]).status == 2)
        #expect(try ParleyProcess.run(["decode", "/no/such/file", "--content-type", "text/plain"]).status == 2)
    }

    @Test func helpExitsZeroWithExamples() throws {
        let result = try ParleyProcess.run(["negotiate", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Examples:"))
    }

    @Test func negotiateBatchAnswersOneLinePerCase() throws {
        let input = """
        {"accept": null, "offers": ["application/json", "text/plain"]}
        {"accept": "text/*", "offers": ["application/json", "text/plain"]}

        {"accept": "image/*", "offers": ["application/json"]}
        {"accept": "*/*", "offers": ["bad type"]}
        not json
        """
        let result = try ParleyProcess.run(["negotiate", "--batch"], input: input)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(result.status == 0)
        #expect(lines.count == 5)
        #expect(lines[0] == #"{"choice": "application/json"}"#)
        #expect(lines[1] == #"{"choice": "text/plain"}"#)
        #expect(lines[2] == #"{"choice": null}"#)
        #expect(lines[3].hasPrefix(#"{"error": "#))
        #expect(lines[4].hasPrefix(#"{"error": "#))
    }

    /// Input and output cross the 64 KiB buffers: 3,000 CRLF lines alternating three offer lists
    /// (each parsed once, answered per line) and one line of a 100 KB Accept.
    @Test func negotiateBatchStreamsThroughItsBuffers() throws {
        let lists = [#"["application/json", "text/plain"]"#, #"["text/plain", "application/json"]"#, #"["image/png"]"#]
        let expected = [#"{"choice": "text/plain"}"#, #"{"choice": "text/plain"}"#, #"{"choice": null}"#]
        var input = ""
        var answers: [String] = []
        for index in 0..<3_000 {
            input += "{\"accept\": \"text/*\", \"offers\": \(lists[index % 3])}\r\n"
            answers.append(expected[index % 3])
        }
        let longAccept = Array(repeating: "application/x-long", count: 5_000).joined(separator: ", ") + ", image/*"
        input += "{\"accept\": \"\(longAccept)\", \"offers\": [\"image/png\"]}"
        answers.append(#"{"choice": "image/png"}"#)
        let result = try ParleyProcess.run(["negotiate", "--batch"], input: input)
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").map(String.init) == answers)
    }

    @Test func mediaTypePrintsTheParsedValueAsJSON() throws {
        let result = try ParleyProcess.run(["media-type", "Application/Vnd.API+JSON; Charset=\"utf-8\"; b=2"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "application")
        #expect(object["subtype"] as? String == "vnd.api+json")
        #expect(object["suffix"] as? String == "json")
        #expect(object["parameters"] as? [String: String] == ["charset": "utf-8", "b": "2"])
        #expect(result.stdout.range(of: "\"charset\"")!.lowerBound < result.stdout.range(of: "\"b\"")!.lowerBound,
                "parameters keep their order")
    }

    @Test func mediaTypeErrorsSayWhereAndExitOne() throws {
        let result = try ParleyProcess.run(["media-type", "text/plain; charset"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("byte 19"))
    }

    @Test func mediaTypeBatch() throws {
        let result = try ParleyProcess.run(["media-type", "--batch"],
                                           input: "{\"value\": \"text/*\"}\n{\"value\": \"*/x\"}\n")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains(#""subtype": "*""#))
        #expect(lines[1].contains("wildcard"))
    }

    @Test func matchUsesRegisteredTypesInOrder() throws {
        let suffix = try ParleyProcess.run(["match", "--content-type", "image/svg+xml",
                                            "--registered", "application/xml", "--registered", "image/*"])
        #expect(suffix.stdout == "application/xml\n")
        let range = try ParleyProcess.run(["match", "--content-type", "image/png", "--registered", "application/xml",
                                           "--registered", "image/*"])
        #expect(range.stdout == "image/*\n")
        let none = try ParleyProcess.run(["match", "--content-type", "video/mp4", "--registered", "image/*"])
        #expect(none.status == 3)
        let batch = try ParleyProcess.run(["match", "--batch"], input: """
            {"content_type": "application/geo+json", "registered": ["application/json", "application/*+json"]}
            {"content_type": "*/*", "registered": ["*/*"]}
            """)
        #expect(batch.stdout == "{\"match\": \"application/*+json\"}\n{\"match\": null}\n")
    }

    /// The batch modes build a negotiator or registry once per distinct list: alternating and
    /// repeated lists (and a bad one between them) still answer each line with its own list.
    @Test func batchLinesAreAnsweredWithTheirOwnLists() throws {
        let match = try ParleyProcess.run(["match", "--batch"], input: """
            {"content_type": "image/png", "registered": ["image/*"]}
            {"content_type": "image/png", "registered": ["application/xml"]}
            {"content_type": "image/png", "registered": ["image/*"]}
            {"content_type": "image/png", "registered": ["not a type"]}
            {"content_type": "image/png", "registered": ["image/*"]}
            """)
        let matches = match.stdout.split(separator: "\n")
        #expect(matches.count == 5)
        #expect(matches.enumerated().filter { $0.offset != 3 }.map(\.element)
            == [#"{"match": "image/*"}"#, #"{"match": null}"#, #"{"match": "image/*"}"#, #"{"match": "image/*"}"#])
        #expect(matches.dropFirst(3).first?.hasPrefix(#"{"error": "invalid registered type 'not a type'"#) == true)

        let negotiate = try ParleyProcess.run(["negotiate", "--batch"], input: """
            {"accept": "text/csv", "offers": ["text/csv", "application/json"]}
            {"accept": "text/csv", "offers": ["application/json"]}
            {"accept": "text/csv", "offers": ["text/csv", "application/json"]}
            {"accept": "text/csv", "offers": ["not a type"]}
            {"accept": "application/*", "offers": ["text/csv", "application/json"]}
            """)
        let choices = negotiate.stdout.split(separator: "\n")
        #expect(choices.count == 5)
        #expect(choices.enumerated().filter { $0.offset != 3 }.map(\.element)
            == [#"{"choice": "text/csv"}"#, #"{"choice": null}"#, #"{"choice": "text/csv"}"#,
                #"{"choice": "application/json"}"#])
        #expect(choices.dropFirst(3).first?.hasPrefix(#"{"error": "invalid offer 'not a type'"#) == true)
    }

    @Test func matchDefaultsToTheLinkedFormats() throws {
        let result = try ParleyProcess.run(["match", "--content-type", "text/markdown; charset=utf-8"])
        #expect(result.stdout == "text/*\n")
    }

    @Test(arguments: ["application/*+json", "*/*", "text/*", "application/*+json; charset=utf-8"])
    func matchRefusesAWildcardContentType(contentType: String) throws {
        let registered = try ParleyProcess.run(["match", "--content-type", contentType, "--registered",
                                                "application/json",
                                                "--registered", "application/*+json", "--registered", "text/*",
                                                "--registered", "*/*"])
        #expect(registered.status == 3)
        #expect(registered.stdout.isEmpty)
        #expect(registered.stderr.contains("no registered type decodes"))
        let linked = try ParleyProcess.run(["match", "--content-type", contentType])
        #expect(linked.status == 3)
        #expect(linked.stdout.isEmpty)
        let line = #"{"content_type": "\#(contentType)", "#
            + #""registered": ["application/json", "application/*+json", "text/*", "*/*"]}"#
        let batch = try ParleyProcess.run(["match", "--batch"], input: line)
        #expect(batch.stdout == "{\"match\": null}\n")
    }

    @Test func matchBatchWithNoRegisteredTypesMatchesNothing() throws {
        let batch = try ParleyProcess.run(["match", "--batch"], input: """
            {"content_type": "text/plain", "registered": []}
            {"content_type": "application/json", "registered": []}
            {"content_type": "text/plain"}
            {"content_type": "text/plain", "registered": null}
            {"content_type": "text/plain", "registered": ["text/plain"]}
            """)
        #expect(batch.status == 0)
        #expect(batch.stdout.split(separator: "\n") == [
            #"{"match": null}"#, #"{"match": null}"#,
            #"{"match": "text/plain"}"#, #"{"match": "text/plain"}"#, #"{"match": "text/plain"}"#,
        ])
    }

    @Test func formatsListsEveryLinkedFormat() throws {
        let result = try ParleyProcess.run(["formats", "--json"])
        #expect(result.status == 0)
        let names = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["name"] as? String
        }
        #expect(names.contains("text"))
        #expect(names.contains("raw"))
        #expect(names.last == "raw")
    }

    @Test func decodeTextAndFailures() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let latin1 = directory.appendingPathComponent("latin1.txt")
        try Data([0x63, 0x61, 0x66, 0xE9]).write(to: latin1)
        let ok = try ParleyProcess.run(["decode", latin1.path, "--content-type", "text/plain; charset=iso-8859-1",
                                        "--to", "text/plain"])
        #expect(ok.status == 0)
        #expect(ok.stdout == "café\n")

        let bad = try ParleyProcess.run(["decode", "-", "--content-type", "text/plain", "--to", "text/plain"],
                                        input: "\u{FFFF}")
        #expect(bad.status == 0, "U+FFFF is valid UTF-8")
        let unknown = try ParleyProcess.run(["decode", latin1.path, "--content-type", "video/mp4"])
        #expect(unknown.status == 3)
        #expect(unknown.stderr.contains("video/mp4"))
        let invalid = try ParleyProcess.run(["decode", latin1.path, "--content-type", "text/plain", "--to",
                                             "text/plain"])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("byte 3"))
    }
}

/// What a newcomer meets first: copyable examples, plain JSON on a terminal, defaults that work
/// outside Parley's checkout.
@Suite struct CommandDefaultsTests {
    @Test(arguments: ["formats", "negotiate", "media-type", "match", "decode", "check"])
    func everyHelpExampleIsOneLineAtEightyColumns(command: String) throws {
        let help = try ParleyProcess.run([command, "--help"], environment: ["COLUMNS": "80"]).stdout
        guard let start = help.range(of: "Examples:\n") else { return }
        let examples = help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.isEmpty }
        #expect(!examples.isEmpty)
        for line in examples { #expect(line.hasPrefix("  "), "wrapped example line: \(line)") }
    }

    @Test func decodePrintsPlainJSONOnATerminalAndTypedJSONInAPipe() throws {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-plain-\(UUID().uuidString).json")
        try Data(#"{"id": 7, "price": 12.5}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let terminal = try ColorAndProgressTests.onTerminal(["decode", file.path])
        #expect(terminal.contains("\"id\":7") || terminal.contains("\"id\": 7"), "\(terminal)")
        #expect(!terminal.contains("$int"), "\(terminal)")
        let typedOnTerminal = try ColorAndProgressTests.onTerminal(["decode", file.path, "--typed-json"])
        #expect(typedOnTerminal.contains("$int"), "\(typedOnTerminal)")
        let piped = try ParleyProcess.run(["decode", file.path])
        #expect(piped.stdout.contains("$int"))
    }

    @Test func negotiateWithoutOffersUsesTheLinkedFormatsTypes() throws {
        let yaml = try ParleyProcess.run(["negotiate", "--accept", "application/yaml"])
        #expect(yaml.status == 0, "\(yaml.stderr)")
        #expect(yaml.stdout == "application/yaml\n")
        let csv = try ParleyProcess.run(["negotiate", "--accept", "text/csv, */*;q=0.1"])
        #expect(csv.stdout == "text/csv\n")
        #expect(try ParleyProcess.run(["negotiate", "--accept", "video/mp4"]).status == 3)
    }

    @Test func checkWithoutAPathChecksTheCurrentFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cwd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n{\"a\": 1}"
        try Data(raw.utf8).write(to: folder.appendingPathComponent("one.http"))
        let result = try ParleyProcess.run(["check"], directory: folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("checked 1 recording"), "\(result.stdout)")
    }

    @Test func unreadableFilesAreNamedOnTheLastLine() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-unreadable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n{\"a\": 1}"
        try Data(good.utf8).write(to: folder.appendingPathComponent("good.http"))
        try Data("HTTP/1.1 abc\r\n\r\n".utf8).write(to: folder.appendingPathComponent("broken.http"))
        let result = try ParleyProcess.run(["check", folder.path])
        #expect(result.status == 2)
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last == "1 file could not be read: \(folder.path)/broken.http; every other file was checked (exit 2)",
                "\(result.stdout)")
    }
}
