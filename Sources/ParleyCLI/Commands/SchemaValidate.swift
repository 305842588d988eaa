import ArgumentParser
import HTTPTypes
import Parley
import ParleyHTTP
import ParleyJSON
import ParleySchema

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `parley schema validate`: instances of any registered format against one schema.
struct SchemaValidate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate instances (any registered format) against a JSON Schema.",
        discussion: """
            The schema file is JSON or YAML. Each instance decodes with the format its --content-type, \
            its extension or its content selects. Text-only formats (XML, CSV, forms) have their \
            string scalars read as the schema's types ("5" as an integer where the schema says \
            integer), and an XML document is validated as the content of its root element.
            Without --dialect, the schema's $schema decides, else 2020-12. $refs reach only the \
            schema itself, the bundled meta-schemas and folders given with --remote; nothing is fetched.
            Prints "FILE: valid", or for an invalid instance one line per error: the file, the \
            instance path, the schema path and the message.
            Exits 0 when every instance is valid, 1 when one is invalid, 2 when an input cannot be \
            read or decoded or the schema does not compile.
            With --batch, reads lines {"schema": S, "instance": I, "dialect": D} from standard \
            input and answers each with {"valid": true}, {"valid": false, "errors": [{"instance_path", \
            "schema_path", "message"}]} or {"error": "…"}.

            Examples:
              parley schema validate order.schema.json order.yaml
              parley schema validate order.schema.json order.xml --dialect openapi-3.0 --format-assertion
              cat order.json | parley schema validate order.schema.json -
              parley schema validate api.schema.json body.json --remote http://localhost:1234/=schemas
              echo '{"schema": {"type": "integer"}, "instance": "5"}' | parley schema validate --batch
            """)

    @Argument(help: "The schema file (JSON or YAML).")
    var schema: String?

    @Argument(help: "Instance files, or - for standard input (default: standard input).")
    var instances: [String] = []

    @Option(help: "draft4, openapi-3.0, 2020-12 or openapi-3.1 (default: the schema's $schema, else 2020-12).")
    var dialect: String?

    @Option(
        name: .customLong("content-type"),
        help: "The instances' Content-Type (default: from the extension, else the content).")
    var contentType: String?

    @Option(help: "URI=DIR: serve $refs under URI from the JSON files of DIR (repeatable).")
    var remote: [String] = []

    @Flag(name: .customLong("format-assertion"), help: "Make `format` assert instead of annotate.")
    var formatAssertion = false

    @Flag(help: "Read {\"schema\", \"instance\", \"dialect\"} lines from standard input.")
    var batch = false

    func validate() throws {
        if !batch && schema == nil { throw ValidationError("give a schema file") }
        if let dialect, JSONSchema.Dialect(rawValue: dialect) == nil {
            throw ValidationError("unknown --dialect '\(dialect)': use draft4, openapi-3.0, 2020-12 or openapi-3.1")
        }
        for entry in remote where !entry.contains("=") {
            throw ValidationError("--remote takes URI=DIR, not '\(entry)'")
        }
    }

    func options(dialect name: String?) -> JSONSchema.Options {
        var resources = SchemaResources()
        for entry in remote {
            let parts = entry.split(separator: "=", maxSplits: 1)
            resources.serve(folder: String(parts[1]), under: String(parts[0])) { try JSONFormat().decode($0) }
        }
        return JSONSchema.Options(
            dialect: name.flatMap(JSONSchema.Dialect.init(rawValue:)),
            formatAssertion: formatAssertion, resources: resources)
    }

    func run() throws {
        if batch { return try runBatch() }
        let registry = CommandEnvironment.registry
        let schemaValue = try decode(path: schema!, label: nil, registry: registry).value
        let compiled: JSONSchema
        do {
            compiled = try JSONSchema(schemaValue, options: options(dialect: dialect))
        } catch {
            printError("error: \(schema!): \(error)")
            throw ExitCode.usage
        }
        var allValid = true
        for path in instances.isEmpty ? ["-"] : instances {
            let (value, type) = try decode(path: path, label: contentType, registry: registry)
            let textScalars = Self.hasTextScalars(type)
            var instance = value
            if type.subtype == "xml" || type.suffix == "xml", case .object(let root) = value, root.count == 1 {
                instance = root[0].value
            }
            let name = path == "-" ? "standard input" : path
            let result: ValidationResult
            do {
                result = try compiled.validate(instance, options: .init(coercesStrings: textScalars))
            } catch {
                printError("error: \(name): \(error)")
                throw ExitCode.checkFailed
            }
            if result.isValid {
                print("\(name): valid")
            } else {
                allValid = false
                for error in result.errors {
                    let location = error.instanceLocation.isEmpty ? "/" : error.instanceLocation
                    print("\(name): \(location) \(error.keywordLocation): \(error.message)")
                }
            }
        }
        if !allValid { throw ExitCode.checkFailed }
    }

    /// Whether a type's scalars are all text, so they are read as the schema's types.
    static func hasTextScalars(_ type: MediaType) -> Bool {
        type.subtype == "xml" || type.suffix == "xml" || type.subtype == "csv"
            || type.subtype == "x-www-form-urlencoded"
    }

    /// The value of a file (or standard input) decoded by the type the label, extension or content selects.
    func decode(path: String, label: String?, registry: Registry) throws -> (value: Value, type: MediaType) {
        let body = try readInput(path)
        let type: MediaType
        if let label {
            do { type = try MediaType(parsing: label) } catch {
                throw ValidationError("invalid --content-type '\(label)': \(error)")
            }
        } else {
            type = try BodyTypeGuess.choose(path: path == "-" ? nil : path, body: body, registry: registry).mediaType
        }
        let response = HTTPResponse(status: .ok, headerFields: [.contentType: type.description])
        do {
            return (try ResponsePipeline(registry: registry).run(response, body: body, request: nil).get(), type)
        } catch {
            throw InputError(message: "\(path) does not decode as \(type): \(error.message)")
        }
    }

    /// `--batch`: one answer line per input line.
    func runBatch() throws {
        let input = try readInput("-")
        for line in input.split(separator: UInt8(ascii: "\n")) where !line.allSatisfy({ $0 == 32 || $0 == 13 }) {
            print(answer(Array(line)))
        }
    }

    func answer(_ line: [UInt8]) -> String {
        let request: Value
        do {
            request = try JSONFormat().decode(line)
        } catch {
            return #"{"error": \#(JSONText.quote("the line is not JSON: \(error)"))}"#
        }
        guard let schemaValue = request["schema"], let instance = request["instance"] else {
            return #"{"error": "expected {\"schema\", \"instance\", \"dialect\"}"}"#
        }
        let dialectName = request["dialect"]?.stringValue ?? dialect
        if let dialectName, JSONSchema.Dialect(rawValue: dialectName) == nil {
            return #"{"error": \#(JSONText.quote("unknown dialect \(dialectName)"))}"#
        }
        do {
            let compiled = try JSONSchema(schemaValue, options: options(dialect: dialectName))
            let result = try compiled.validate(instance)
            if result.isValid { return #"{"valid": true}"# }
            let errors = result.errors.map { error in
                #"{"instance_path": \#(JSONText.quote(error.instanceLocation)), "#
                    + #""schema_path": \#(JSONText.quote(error.keywordLocation)), "#
                    + #""message": \#(JSONText.quote(error.message))}"#
            }
            return #"{"valid": false, "errors": [\#(errors.joined(separator: ", "))]}"#
        } catch {
            return #"{"error": \#(JSONText.quote("\(error)"))}"#
        }
    }
}
