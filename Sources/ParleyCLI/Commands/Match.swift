import ArgumentParser
import Parley

struct Match: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the registered type that would decode a Content-Type.",
        discussion: """
        Matching ranks: exact type/subtype > type/*+suffix > the suffix's base type > type/* > */*.
        Without --registered, the formats linked into this parley are used. A wildcard \
        Content-Type (*/*, text/*, application/*+json) is not a concrete type and matches \
        nothing. Exits 3 when nothing matches.

        In --batch, a line without "registered" (or with null) uses the linked formats; \
        "registered": [] registers nothing, so nothing matches.

        Examples:
          parley match --content-type 'application/problem+json'
          parley match --content-type 'image/svg+xml' --registered application/xml --registered 'text/*'
          echo '{"content_type": "text/csv", "registered": ["text/*"]}' | parley match --batch
        """)

    @Option(name: .customLong("content-type"), help: "The Content-Type field value.")
    var contentType: String?

    @Option(help: "A registered media type (repeat for several, in registration order).")
    var registered: [String] = []

    @Flag(help: "Read {\"content_type\": string, \"registered\": [...]} lines; write {\"match\": string|null} lines.")
    var batch = false

    func validate() throws {
        if !batch && contentType == nil { throw ValidationError("give --content-type") }
    }

    func run() throws {
        if batch {
            forEachBatchLine { line in
                guard let contentType = try line.string("content_type") else {
                    throw InputError(message: "expected {\"content_type\": string}")
                }
                return "{\"match\": \(JSONText.quote(try Self.match(contentType, registered: try line.strings("registered"))))}"
            }
            return
        }
        guard let match = try Self.match(contentType!, registered: registered.isEmpty ? nil : registered) else {
            printError("no registered type decodes '\(contentType!)'")
            throw ExitCode.notAcceptable
        }
        print(match)
    }

    /// The registered type that would decode `contentType`: among `registered`, in order, or
    /// among the linked formats when `registered` is `nil`. An empty list registers nothing.
    static func match(_ contentType: String, registered: [String]?) throws -> String? {
        let registry: Registry
        if let registered {
            var types: [MediaType] = []
            for text in registered {
                do { types.append(try MediaType(parsing: text)) } catch {
                    throw ValidationError("invalid registered type '\(text)': \(error)")
                }
            }
            // One format per registered type keeps registration order as the tie-break.
            registry = Registry(formats: types.map { MatchOnlyFormat(type: $0) })
        } else {
            registry = CommandEnvironment.registry
        }
        return registry.decoder(forContentType: contentType)?.registeredType.description
    }
}

/// A format that only declares a type, for `match --registered`.
struct MatchOnlyFormat: Format {
    var type: MediaType
    var name: String { "registered" }
    var decodableMediaTypes: [MediaType] { [type] }
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value { .null }
}
