import ArgumentParser
import Parley

struct Match: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
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
          parley match --content-type 'image/svg+xml' --registered application/xml
          echo '{"content_type": "text/csv"}' | parley match --batch
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
        if batch { return Self.runBatch() }
        let registry = try registered.isEmpty ? nil : Self.registry(registering: registered)
        guard let match = Self.match(contentType!, in: registry) else {
            printError("no registered type decodes '\(contentType!)'")
            throw ExitCode.notAcceptable
        }
        print(match)
    }

    /// `parley match --batch`: one answer line per `{"content_type", "registered"}` line.
    static func runBatch() {
        // Each distinct registered list becomes a registry once.
        var registries = BatchListCache<Registry>()
        forEachBatchLine { line, answer in
            guard let contentType = try line.string("content_type") else {
                throw InputError(message: "expected {\"content_type\": string}")
            }
            let registry = try line.strings("registered").map {
                try registries.value(for: $0, build: Self.registry(registering:))
            }
            answer.member("match", Self.match(contentType, in: registry))
        }
    }

    /// The registered type that would decode `contentType`: in `registry`, or among the linked
    /// formats when `registry` is `nil`.
    static func match(_ contentType: String, in registry: Registry?) -> String? {
        (registry ?? CommandEnvironment.registry).decoder(forContentType: contentType)?.registeredType.description
    }

    /// A registry of `registered` types, in order (an empty list registers nothing).
    /// - Throws: `ValidationError` naming a type that is not a media type.
    static func registry(registering registered: [String]) throws -> Registry {
        var types: [MediaType] = []
        for text in registered {
            do { types.append(try MediaType(parsing: text)) } catch {
                throw ValidationError("invalid registered type '\(text)': \(error)")
            }
        }
        // One format per registered type keeps registration order as the tie-break.
        return Registry(formats: types.map { MatchOnlyFormat(type: $0) })
    }
}

/// A format that only declares a type, for `match --registered`.
struct MatchOnlyFormat: Format {
    var type: MediaType
    var name: String { "registered" }
    var decodableMediaTypes: [MediaType] { [type] }
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value { .null }
}
