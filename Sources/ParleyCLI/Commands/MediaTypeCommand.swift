import ArgumentParser
import Parley

struct MediaTypeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "media-type",
        abstract: "Parse a media type and print it as JSON.",
        discussion: """
        Prints {"type", "subtype", "suffix", "parameters"}; an invalid value prints the error \
        and where it broke to stderr and exits 1.

        Examples:
          parley media-type 'application/vnd.api+json; charset=utf-8'
          echo '{"value": "text/html;;charset=\\"utf-8\\""}' | parley media-type --batch
        """)

    @Flag(help: "Read {\"value\": string} lines; write the parsed object or {\"error\": string} lines.")
    var batch = false

    @Argument(help: "The media type.")
    var value: String?

    func validate() throws {
        if !batch && value == nil { throw ValidationError("give a media type") }
    }

    func run() throws {
        if batch { return Self.runBatch() }
        do {
            var answer = BatchAnswer()
            Self.write(try MediaType(parsing: value!), to: &answer)
            print(answer.text)
        } catch {
            printError("error: \(error)")
            throw ExitCode.checkFailed
        }
    }

    /// `parley media-type --batch`: one answer line per `{"value": string}` line.
    static func runBatch() {
        forEachBatchLine { line, answer in
            // Parsed straight from the line's bytes: no string is made for the value.
            let written: Void? = try line.withString("value") { bytes in
                Self.write(try MediaType(parsing: bytes), to: &answer)
            }
            if written == nil { throw InputError(message: "expected {\"value\": string}") }
        }
    }

    /// `type` as `{"type", "subtype", "suffix", "parameters"}`: always these members in this
    /// order, so written as the fixed text between the values, a few pieces rather than several
    /// per member. The type, subtype, suffix and parameter names are tokens, copied without a look
    /// for escapes (which tokens never need); only parameter values may need them.
    static func write(_ type: MediaType, to answer: inout BatchAnswer) {
        answer.raw(#""type": ""#)
        answer.tokenContents(type.type)
        answer.raw(#"", "subtype": ""#)
        type.withSubtypeUTF8 { subtype, suffix in
            answer.tokenContents(subtype)
            if let suffix {
                answer.raw(#"", "suffix": ""#)
                answer.tokenContents(suffix)
                answer.raw(#"", "parameters": {"#)
            } else {
                answer.raw(#"", "suffix": null, "parameters": {"#)
            }
        }
        var isFirst = true
        type.parameterList.forEach { parameter in
            // The previous value's closing quote and this name's opening one.
            answer.raw(isFirst ? #"""# : #"", ""#)
            isFirst = false
            answer.tokenContents(parameter.name)
            answer.raw(#"": ""#)
            answer.stringContents(parameter.value)
        }
        answer.raw(isFirst ? "}" : #""}"#)
    }
}
