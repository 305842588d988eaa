import ArgumentParser
import FoundationEssentials
import Parley
import ParleyHTTP

struct Negotiate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "negotiate",
        abstract: "Choose what Accept, Accept-Encoding, Accept-Language and Accept-Charset prefer.",
        discussion: """
        With media-type offers alone, prints the chosen offer exactly as given, or
        exits 3 when none is acceptable. Without --accept the request had no Accept
        field: the first offer wins. Without offers (and no other dimension), the
        offers are the types the linked formats encode, as `parley formats` lists
        them.

        Each other dimension is negotiated when its field or its offers are given,
        as Registry.reply does, and printed as a 'name: value' line (type,
        encoding, language, charset):
        - encoding: --accept-encoding among --encodings (default
          gzip,deflate,br,zstd, the server's order of preference); 'identity' for
          no coding, also the answer without the field; exits 3 when even
          identity is excluded.
        - language: --accept-language among --languages (BCP 47 tags; the first
          is the default); RFC 4647 basic filtering, then lookup; the default
          when none matches.
        - charset: --accept-charset among utf-8 and --charsets; when none is
          acceptable, the first the field does not exclude with q=0 (utf-8 when
          every one is).

        Examples:
          parley negotiate --accept 'text/csv, */*;q=0.5' application/json text/csv
          parley negotiate --accept 'text/*'
          parley negotiate --accept-encoding 'gzip, br;q=0.9' --encodings br,gzip
          parley negotiate --accept-language 'en-GB,de;q=0.8' --languages de,en
          parley negotiate --accept-charset 'utf-8;q=0' --charsets iso-8859-1
          echo '{"offers": ["text/csv"]}' | parley negotiate --batch
          echo '{"accept_encoding": "gzip;q=0.5, br"}' | parley negotiate --batch
        """)

    @Option(help: "The Accept field value (omit for a request without one).")
    var accept: String?

    @Option(help: "The Accept-Encoding field value (omit for a request without one).")
    var acceptEncoding: String?

    @Option(help: "The content codings the server can apply, comma-separated, most preferred first.")
    var encodings: String?

    @Option(help: "The Accept-Language field value (omit for a request without one).")
    var acceptLanguage: String?

    @Option(help: "The languages the server has, comma-separated, most preferred (the default) first.")
    var languages: String?

    @Option(help: "The Accept-Charset field value (omit for a request without one).")
    var acceptCharset: String?

    @Option(help: "The charsets the server can write besides utf-8, comma-separated, most preferred first.")
    var charsets: String?

    @Flag(help: """
        Read {"accept", "offers", "accept_encoding", "encodings", "accept_language", "languages", \
        "accept_charset", "charsets"} lines; write {"choice", "encoding", "language", "charset"} lines \
        (each dimension when its fields are given; null when nothing is acceptable).
        """)
    var batch = false

    @Argument(help: "The media-type offers, most preferred first (default: the linked formats' types).")
    var offers: [String] = []

    /// The dimensions asked besides the media type.
    var request: DimensionRequest {
        DimensionRequest(encoding: (acceptEncoding != nil || encodings != nil)
                            ? (acceptEncoding, Self.list(encodings) ?? Self.defaultEncodings) : nil,
                         language: languages != nil ? (acceptLanguage, Self.list(languages) ?? []) : nil,
                         charset: (acceptCharset != nil || charsets != nil) ? (acceptCharset, Self.list(charsets) ?? [])
                             : nil)
    }

    func validate() throws {
        if acceptLanguage != nil && languages == nil { throw ValidationError("--accept-language needs --languages") }
        if languages != nil && (Self.list(languages) ?? []).isEmpty {
            throw ValidationError("give at least one language")
        }
    }

    func run() throws {
        if batch { return Self.runBatch() }
        let dimensions = request
        var lines: [String] = []
        let offers = offers.isEmpty && !dimensions.asksAny
            ? CommandEnvironment.registry.encodableMediaTypes.map(\.description) : offers
        if !offers.isEmpty {
            guard let choice = try Self.choose(accept: accept, offers: offers) else {
                printError("nothing acceptable for Accept '\(accept ?? "")'")
                throw ExitCode.notAcceptable
            }
            if !dimensions.asksAny {
                print(choice)
                return
            }
            lines.append("type: \(choice)")
        }
        let answer = dimensions.answer()
        if let encoding = dimensions.encoding {
            guard let coding = answer.encoding else {
                printError("nothing acceptable for Accept-Encoding '\(encoding.field ?? "")', identity included")
                throw ExitCode.notAcceptable
            }
            lines.append("encoding: \(coding)")
        }
        if let language = answer.language { lines.append("language: \(language)") }
        if let charset = answer.charset { lines.append("charset: \(charset)") }
        print(lines.joined(separator: "\n"))
    }

    /// `parley negotiate --batch`: one answer line per request line.
    static func runBatch() {
        // Offers are parsed once per distinct list: batch lines usually repeat a few lists.
        var negotiators = BatchListCache<AcceptNegotiator>()
        forEachBatchLine { line, answer in try Self.answer(batchLine: line, negotiators: &negotiators, to: &answer) }
    }

    static let defaultEncodings = ["gzip", "deflate", "br", "zstd"]

    /// A comma-separated list, trimmed, without empty items; `nil` for `nil`.
    static func list(_ text: String?) -> [String]? {
        text.map { $0.split(separator: ",").map { $0.trimmingSpacesAndTabs() }.filter { !$0.isEmpty } }
    }

    /// One batch line's answer.
    static func answer(batchLine line: BatchLine, negotiators: inout BatchListCache<AcceptNegotiator>,
                       to answer: inout BatchAnswer) throws {
        if line.has("accept_language") && !line.has("languages") {
            throw InputError(message: "accept_language needs languages")
        }
        let dimensions = DimensionRequest(
            encoding: line.has("accept_encoding") || line.has("encodings")
                ? (try line.string("accept_encoding"), try line.strings("encodings") ?? defaultEncodings) : nil,
            language: line.has("languages") ? (try line.string("accept_language"), try line.strings("languages") ?? [])
                : nil,
            charset: line.has("accept_charset") || line.has("charsets")
                ? (try line.string("accept_charset"), try line.strings("charsets") ?? []) : nil)
        // Each member is read once; `has` only decides when both are absent or null.
        let offers = try line.strings("offers")
        let accept = try line.string("accept")
        if offers != nil || accept != nil || line.has("offers") || line.has("accept") || !dimensions.asksAny {
            let offers = offers ?? []
            let offerNegotiator = try negotiators.value(for: offers, build: negotiator(for:))
            let choice = offerNegotiator.preferredOfferIndex(forAccept: accept)
            answer.member("choice", choice.map { offers[$0] })
        }
        let chosen = dimensions.answer()
        if dimensions.encoding != nil { answer.member("encoding", chosen.encoding) }
        if dimensions.language != nil { answer.member("language", chosen.language) }
        if dimensions.charset != nil { answer.member("charset", chosen.charset) }
    }

    /// The offer (as given) that `accept` prefers.
    static func choose(accept: String?, offers: [String]) throws -> String? {
        try negotiator(for: offers).preferredOfferIndex(forAccept: accept).map { offers[$0] }
    }

    /// A negotiator over `offers`, parsed.
    /// - Throws: `ValidationError` naming an offer that is not a media type.
    static func negotiator(for offers: [String]) throws -> AcceptNegotiator {
        var parsed: [MediaType] = []
        for offer in offers {
            do { parsed.append(try MediaType(parsing: offer)) } catch {
                throw ValidationError("invalid offer '\(offer)': \(error)")
            }
        }
        return AcceptNegotiator(offers: parsed)
    }
}

/// The dimensions besides the media type one negotiation asks for: each a field value (`nil`
/// for no field) and the server's offers.
struct DimensionRequest {
    var encoding: (field: String?, offers: [String])?
    var language: (field: String?, offers: [String])?
    var charset: (field: String?, offers: [String])?

    var asksAny: Bool { encoding != nil || language != nil || charset != nil }

    /// What the server answers: the coding (`identity` for none, `nil` when even identity is
    /// excluded), the language (the default when none matches), the charset (the first not
    /// excluded when none is acceptable, UTF-8 when all are), each `nil` when not asked.
    func answer() -> (encoding: String?, language: String?, charset: String?) {
        let coding = encoding.flatMap {
            EncodingNegotiator(codings: $0.offers).preferredCoding(forAcceptEncoding: $0.field)
        }
        let chosenLanguage = language.flatMap {
            LanguageNegotiator(languages: $0.offers).language(forAcceptLanguage: $0.field)
        }
        let chosenCharset = charset.map { charset -> String in
            let offered = ReplyOptions(charsets: charset.offers).offeredCharsets
            let index = CharsetNegotiator(charsets: offered).unexcludedCharsetIndex(forAcceptCharset: charset.field)
            return index.map { offered[$0] } ?? "utf-8"
        }
        return (coding, chosenLanguage, chosenCharset)
    }
}
