import ArgumentParser
import Foundation
import ParleyCLI
import Testing

/// `parley MODE --batch`, exactly, runs without argument-parser (`ParleyCommand.batchRun(for:)`);
/// every other spelling goes through it. Both routes must answer alike.
@Suite struct BatchFastPathTests {
    /// Each mode's lines: answers, invalid lines, escapes, CRLF, blank lines, no final newline.
    static let inputs: [String: String] = [
        "media-type": """
            {"value": "application/vnd.api+json; charset=utf-8"}
            {"value": "Text/HTML; Charset=\\"a\\\\\\"b\\""}\r
              {"value": "text/plain; x=\\"tab\\\\there\\""}\t

            {"value": "not a media type"}
            {"value": 5}
            [1, 2]
            garbage
            {"value": "text/plain; name=\\"é ü\\""}
            {"value": "image/svg+xml"}
            """,
        "negotiate": """
            {"accept": "text/*;q=0.5, application/*", "offers": ["text/csv", "application/xml"]}
            {"accept": "text/html", "offers": ["application/json"]}\r
            {"accept": "a/b", "offers": ["bad offer"]}
            {"accept_encoding": "gzip;q=0.5, br", "encodings": ["gzip", "br"]}
            {"accept_language": "en"}

            nope
            {"accept": "*/*", "offers": ["té/x"]}
            """,
        "match": """
            {"content_type": "application/json; charset=utf-8", "registered": ["application/*+json", "text/*"]}
            {"content_type": "text/csv"}\r
            {"content_type": "bad", "registered": ["text/*"]}
            {"content_type": "text/plain", "registered": ["bad reg"]}
            {"content_type": 5}

            []
            """,
    ]

    @Test(arguments: ["media-type", "negotiate", "match"])
    func theDirectRunAnswersAsArgumentParsersRunDoes(mode: String) throws {
        let input = try #require(Self.inputs[mode])
        let direct = try ParleyProcess.run([mode, "--batch"], input: input)
        // `--` ends the options: argument-parser parses this, and reads the same.
        let parsed = try ParleyProcess.run([mode, "--batch", "--"], input: input)
        #expect(direct.status == 0)
        #expect(direct.stdout == parsed.stdout)
        #expect(direct.stderr == parsed.stderr)
        #expect(direct.status == parsed.status)
        // One answer per non-blank line, invalid ones included.
        let answers = direct.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        // Split as bytes: as characters, "\r\n" is one.
        let lines = input.utf8.split(separator: UInt8(ascii: "\n"))
            .filter { !$0.allSatisfy { [9, 13, 32].contains($0) } }
        #expect(answers.count == lines.count + 1 && answers.last == "")
        #expect(answers.contains { $0.hasPrefix(#"{"error": "#) })
    }

    /// media-type writes its four members as fixed text between the values: every shape of
    /// answer, byte for byte (suffix or null, no, one or several parameters, escapes).
    @Test func mediaTypeAnswersAreExactJSON() throws {
        let input = #"""
            {"value": "application/vnd.api+json; charset=utf-8; ext=\"a \\\"b\\\"\""}
            {"value": "text/plain"}
            {"value": "image/svg+xml"}
            {"value": "Text/HTML; A=1; b=\"tab\there\""}
            {"value": "application/x+; q=\"é\""}
            {"value": "a/+json"}
            """#
        let result = try ParleyProcess.run(["media-type", "--batch"], input: input)
        #expect(result.stdout == #"""
            {"type": "application", "subtype": "vnd.api+json", "suffix": "json", \#
            "parameters": {"charset": "utf-8", "ext": "a \"b\""}}
            {"type": "text", "subtype": "plain", "suffix": null, "parameters": {}}
            {"type": "image", "subtype": "svg+xml", "suffix": "xml", "parameters": {}}
            {"type": "text", "subtype": "html", "suffix": null, "parameters": {"a": "1", "b": "tab\there"}}
            {"type": "application", "subtype": "x+", "suffix": null, "parameters": {"q": "é"}}
            {"type": "a", "subtype": "+json", "suffix": "json", "parameters": {}}

            """#)
        let single = try ParleyProcess.run(["media-type", "text/plain; charset=utf-8"])
        #expect(single.stdout
                == #"{"type": "text", "subtype": "plain", "suffix": null, "parameters": {"charset": "utf-8"}}"# + "\n")
    }

    @Test func otherSpellingsGoThroughArgumentParser() throws {
        let help = try ParleyProcess.run(["media-type", "--batch", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("OVERVIEW: Parse a media type"))

        for arguments in [["--batch", "media-type"], ["Media-Type", "--batch"], ["media-type", "--batch", "--bogus"]] {
            let usage = try ParleyProcess.run(arguments, input: "{\"value\": \"text/plain\"}\n")
            #expect(usage.status == 2, "\(arguments)")
            #expect(usage.stdout.isEmpty, "\(arguments)")
            #expect(!usage.stderr.isEmpty, "\(arguments)")
        }

        // An option with --batch is read by argument-parser's run, as before.
        let negotiate = try ParleyProcess.run(["negotiate", "--batch", "--accept-language", "en"], input: "{}\n")
        #expect(negotiate.status == 2)
        #expect(negotiate.stderr.contains("--accept-language needs --languages"))
    }

    /// `ParleyCommand.main` runs `check` asynchronously by its concrete type, not by a cast to
    /// `AsyncParsableCommand`: a new asynchronous subcommand must be added there.
    @Test func checkIsTheOnlyAsynchronousSubcommand() {
        let asynchronous = ParleyCommand.configuration.subcommands.filter { $0 is any AsyncParsableCommand.Type }
        #expect(asynchronous.map { $0.configuration.commandName } == ["check"])
    }

    /// A batch parses every line into the memory of the line before when it can: each line is
    /// answered as a batch of that line alone answers it, whatever the lines around it (longer,
    /// shorter, invalid, with number text or a large object, which need a tape of their own).
    @Test(arguments: ["media-type", "negotiate", "match"])
    func eachLineIsAnsweredAsOnItsOwn(mode: String) throws {
        let key = ["media-type": "value", "negotiate": "accept", "match": "content_type"][mode]!
        let large = (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let lines = [
            "{\"\(key)\": \"text/plain\"}",
            "{\"\(key)\": \"application/vnd.\(String(repeating: "long", count: 300))+json; a=\\\"x\\\"\", " +
            "\"offers\": [\"text/csv\"]}",
            "{\"\(key)\": \"a/b\"}",
            "{\"\(key)\": \"text/html\", \"n\": 123456789012345678901234567890}",
            "{\"\(key)\": \"text/css\"}",
            "{\"\(key)\": ",
            "{\"\(key)\": \"image/png\", \(large)}",
            "{\"\(key)\": \"text/\\u0078ml; q=\\\"\\u00e9\\\"\"}",
            "[" + Array(repeating: "1", count: 200).joined(separator: ",") + "]",
            "{\"\(key)\": \"x/y\"}",
        ]
        let together = try ParleyProcess.run([mode, "--batch"], input: lines.joined(separator: "\n") + "\n")
        var alone = ""
        for line in lines { alone += try ParleyProcess.run([mode, "--batch"], input: line + "\n").stdout }
        #expect(together.stdout == alone)
        #expect(together.stdout.split(separator: "\n").count == lines.count)
    }
}
