import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPTypes
import Parley
import ParleyHTTP

struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode a body with the format its Content-Type selects, and print it.",
        discussion: """
        On a terminal, prints plain JSON. Piped or redirected, and with --typed-json, prints \
        typed JSON, which shows exactly what was decoded: integers {"$int": "…"}, reals \
        {"$real": "…"}, dates {"$date": "…Z"}, bytes {"$data": "base64"}, UIDs {"$uid": n}; \
        strings, Booleans, null, arrays and objects as themselves. --to transcodes to another \
        registered type instead (--to application/json for plain JSON in a pipe).
        The body runs through the response pipeline a client runs (charset conversion, sniffing, \
        the format with its limits); a mislabelled body is reported on standard error. \
        Without --content-type the type comes from the file's extension (.json, .yaml, .png, …) \
        when a linked format decodes it, otherwise from what the bytes look like (the formats' \
        sniffers); the choice and its reason go to standard error.
        Exits 1 with the typed error on bad input, 2 when the file cannot be read or its type \
        cannot be told, 3 when no format decodes the type or encodes the --to type.

        Examples:
          parley decode response.json
          parley decode config.yaml --to application/json
          parley decode response.bin --content-type application/json
          curl -s https://example.org/feed | parley decode - --content-type text/xml
          parley decode order.bin --descriptor-set api.binpb \\
            --content-type 'application/protobuf;messageType=shop.Order'
        """)

    @Argument(help: "The body file, or - for standard input.")
    var file: String = "-"

    @Option(name: .customLong("content-type"),
            help: "The body's Content-Type (default: from the file extension, else from the content).")
    var contentType: String?

    @Option(help: "Transcode to this media type.")
    var to: String?

    @Option(name: .customLong("descriptor-set"),
            help: "A protobuf FileDescriptorSet (protoc --descriptor_set_out --include_imports; repeatable).")
    var descriptorSets: [String] = []

    @Flag(name: .customLong("typed-json"),
          help: "Print typed JSON (the default when standard output is not a terminal).")
    var typedJSON = false

    func validate() throws {
        if to != nil && typedJSON { throw ValidationError("--to and --typed-json exclude each other") }
    }

    func run() throws {
        let registry = try CommandEnvironment.registry(descriptorSets: descriptorSets).registry
        let label = try contentType.map { text in
            do { return try MediaType(parsing: text) } catch {
                throw ValidationError("invalid --content-type '\(text)': \(error)")
            }
        }
        let body = try readInput(file)
        let type: MediaType
        if let label {
            type = label
        } else {
            let choice = try BodyTypeGuess.choose(path: file == "-" ? nil : file, body: body, registry: registry)
            printError("parley: decoding as \(choice.mediaType) (\(choice.reason))")
            type = choice.mediaType
        }
        let response = HTTPResponse(status: .ok, headerFields: [.contentType: type.description])
        let outcome = ResponsePipeline(registry: registry).run(response, body: body, request: nil)
        for finding in outcome.findings where finding.severity == .warning { printError("warning: \(finding.message)") }
        let value: Value
        do {
            value = try outcome.get()
        } catch let error where error.code == .unacceptableContentType {
            printError("error: no registered format decodes '\(type)'; can decode " +
                       "\(registry.decodableMediaTypes.map(\.description).joined(separator: ", "))")
            throw ExitCode.notAcceptable
        } catch {
            printError("error: \(error.message)")
            throw ExitCode.checkFailed
        }
        let target = to ?? "application/json"
        // Parameters of --to (a protobuf messageType) reach the encoder; Accept matching ignores them.
        let requested = MediaType(target)
        let bare = requested.map { MediaType(type: $0.type, subtype: $0.subtype).description } ?? target
        guard let encoder = registry.encoder(forAccept: bare) else {
            printError("error: no registered format encodes '\(target)'")
            throw ExitCode.notAcceptable
        }
        var encodingType = encoder.mediaType
        for parameter in requested?.parameters ?? [] where encodingType.parameter(parameter.name) == nil {
            encodingType = encodingType.settingParameter(parameter.name, to: parameter.value)
        }
        let printsTyped = to == nil && (typedJSON || isatty(STDOUT_FILENO) != 1)
        let output = printsTyped ? value.typedJSON : value
        do {
            var bytes = try encoder.format.encode(output, context: EncodingContext(mediaType: encodingType))
            if bytes.last != UInt8(ascii: "\n") && encoder.format.isTextual { bytes.append(UInt8(ascii: "\n")) }
            Descriptors.writeAll(bytes, to: STDOUT_FILENO)
        } catch {
            printError("error: cannot encode as \(encoder.mediaType): \(error)")
            throw ExitCode.checkFailed
        }
    }
}
