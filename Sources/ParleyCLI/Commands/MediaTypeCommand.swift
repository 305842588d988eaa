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
        if batch {
            forEachBatchLine { line in
                guard let value = try line.string("value") else { throw InputError(message: "expected {\"value\": string}") }
                return Self.json(try MediaType(parsing: value))
            }
            return
        }
        do {
            print(Self.json(try MediaType(parsing: value!)))
        } catch {
            printError("error: \(error)")
            throw ExitCode.checkFailed
        }
    }

    static func json(_ type: MediaType) -> String {
        let parameters = type.parameters.map { "\(JSONText.quote($0.name)): \(JSONText.quote($0.value))" }
        return "{\"type\": \(JSONText.quote(type.type)), \"subtype\": \(JSONText.quote(type.subtype)), "
            + "\"suffix\": \(JSONText.quote(type.suffix)), \"parameters\": {\(parameters.joined(separator: ", "))}}"
    }
}
