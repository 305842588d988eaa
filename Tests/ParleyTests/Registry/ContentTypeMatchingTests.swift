import HTTPTypes
import Parley
import Testing

/// A format that only declares types, to test matching.
struct DeclaredFormat: Format {
    var name: String
    var decodableMediaTypes: [MediaType]
    var encodableMediaTypes: [MediaType] = []
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value { .string(name) }
    func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] { Array(name.utf8) }
}

@Suite struct ContentTypeMatchingTests {
    let registry = Registry(formats: [
        DeclaredFormat(name: "json", decodableMediaTypes: ["application/json", "application/*+json", "text/json"]),
        DeclaredFormat(name: "xml", decodableMediaTypes: ["application/xml", "text/xml", "application/*+xml"]),
        DeclaredFormat(name: "yaml", decodableMediaTypes: ["application/yaml", "application/x-yaml"]),
        DeclaredFormat(name: "geo", decodableMediaTypes: ["application/geo+json"]),
        DeclaredFormat(name: "text", decodableMediaTypes: ["text/plain", "text/*"]),
        DeclaredFormat(name: "v2", decodableMediaTypes: ["application/vnd.api; version=2"]),
        DeclaredFormat(name: "v2utf", decodableMediaTypes: ["application/vnd.api; version=2; charset=utf-8"]),
        DeclaredFormat(name: "vnd", decodableMediaTypes: ["application/vnd.api"]),
    ])

    func match(_ contentType: String) -> (String, Registry.MatchRank)? {
        registry.decoder(forContentType: contentType).map { ($0.format.name, $0.rank) }
    }

    @Test func exactBeatsEverything() {
        #expect(match("application/geo+json")! == ("geo", .exact))
        #expect(match("TEXT/JSON; charset=utf-8")! == ("json", .exact))
    }

    @Test func suffixRangeBeatsSuffixBaseType() {
        #expect(match("application/problem+json")! == ("json", .suffixRange))
    }

    @Test func suffixBaseTypeCrossesTopLevelTypes() {
        #expect(match("image/svg+xml")! == ("xml", .suffixBaseType))
        #expect(match("text/vnd.x+yaml")! == ("yaml", .suffixBaseType))
    }

    @Test func typeRangeThenNothing() {
        #expect(match("text/csv")! == ("text", .typeRange))
        #expect(match("image/png") == nil)
        #expect(match("application/x+unknown") == nil)
    }

    @Test func registeredParametersMustBePresentAndMoreRankHigher() {
        #expect(match("application/vnd.api; version=2; charset=UTF-8")! == ("v2utf", .exact))
        #expect(match("application/vnd.api; version=2")! == ("v2", .exact))
        #expect(match("application/vnd.api; version=3")! == ("vnd", .exact))
        #expect(match("application/vnd.api")! == ("vnd", .exact))
    }

    @Test func contentTypeParametersNeverPreventAMatch() {
        #expect(match("application/json; charset=latin1; foo=bar")! == ("json", .exact))
    }

    @Test(arguments: ["", "*/*", "text/*", "application/*", "garbage", "text/plain, text/html", "text/plain;a"])
    func unparsableEmptyOrWildcardMatchesNothing(contentType: String) {
        #expect(match(contentType) == nil)
    }

    @Test(arguments: [
        "application/*+json", "application/*+json; charset=utf-8", "APPLICATION/*+JSON", "application/*+xml",
        "image/*+xml", "*/*", "text/*", "application/*", "*/*; q=1", "*"
    ])
    func aWildcardContentTypeMatchesNothingEvenWhereTheSameRangeIsRegistered(contentType: String) {
        let registry = Registry(formats: [
            DeclaredFormat(name: "json", decodableMediaTypes: ["application/json", "application/*+json"]),
            DeclaredFormat(name: "xml", decodableMediaTypes: ["application/xml", "application/*+xml"]),
            DeclaredFormat(name: "text", decodableMediaTypes: ["text/*"]),
            DeclaredFormat(name: "any", decodableMediaTypes: ["application/*", "*/*"]),
        ])
        #expect(registry.decoder(forContentType: contentType) == nil)
        if let type = MediaType(contentType) { #expect(registry.decoder(for: type) == nil) }
        // Concrete types beside them still match.
        #expect(registry.decoder(forContentType: "application/problem+json")?.format.name == "json")
    }

    @Test func aliasesAreDeclaredNotGuessed() {
        #expect(match("application/x-yaml")! == ("yaml", .exact))
        #expect(match("text/yaml")! == ("text", .typeRange), "text/yaml is not declared here, so only text/* takes it")
    }

    @Test func tiesGoToRegistrationOrder() {
        let first = DeclaredFormat(name: "first", decodableMediaTypes: ["application/json"])
        let second = DeclaredFormat(name: "second", decodableMediaTypes: ["application/json"])
        #expect(Registry(formats: [first, second]).decoder(forContentType: "application/json")?.format.name == "first")
        #expect(Registry(formats: [second, first]).decoder(forContentType: "application/json")?.format.name == "second")
    }

    @Test func anyTypeIsTheLastResort() {
        let registry = Registry(formats: [RawFormat(mediaTypes: [.any]), TextFormat()])
        #expect(registry.decoder(forContentType: "text/html")?.format.name == "text")
        #expect(registry.decoder(forContentType: "image/png")?.rank == .anyType)
    }
}

@Suite struct RegistryTests {
    @Test func encoderFollowsAcceptAcrossFormats() {
        let registry = Registry(formats: [
            DeclaredFormat(
                name: "json", decodableMediaTypes: ["application/json"], encodableMediaTypes: ["application/json"]),
            DeclaredFormat(
                name: "yaml", decodableMediaTypes: ["application/yaml"], encodableMediaTypes: ["application/yaml"])
        ])
        #expect(registry.encoder(forAccept: nil)?.format.name == "json")
        #expect(registry.encoder(forAccept: "application/yaml, */*;q=0.1")?.format.name == "yaml")
        #expect(registry.encoder(forAccept: "image/png") == nil)
    }

    @Test func generatedAcceptListsDecodableTypesWithFallingQuality() {
        let registry = Registry(formats: [
            DeclaredFormat(name: "json", decodableMediaTypes: ["application/json", "application/*+json"]),
            DeclaredFormat(name: "xml", decodableMediaTypes: ["application/xml", "text/xml"]),
            TextFormat(),
        ])
        #expect(
            registry.acceptHeaderValue()
                == "application/json, application/xml;q=0.9, text/xml;q=0.9, text/plain;q=0.8, text/*;q=0.8")
        #expect(registry.acceptHeaderValue(includeAny: true).hasSuffix(", */*;q=0.01"))
        // The generated header negotiates back to the first format.
        let accept = registry.acceptHeaderValue()
        #expect(
            AcceptNegotiator(offers: ["text/plain", "application/json"]).preferredOffer(forAccept: accept)
                == "application/json")
    }

    @Test func limitsCanBeChangedPerFormat() throws {
        let registry = Registry.builtIn.settingLimits(DecodingLimits(maxBodyBytes: 4), forFormat: "text")
        #expect(throws: ParleyError.self) { try registry.decode(Array("hello".utf8), contentType: .textPlain) }
        #expect(try registry.decode(Array("hey".utf8), contentType: .textPlain) == "hey")
        #expect(try Registry.builtIn.decode(Array("hello".utf8), contentType: .textPlain) == "hello")
    }

    @Test func decodeWithoutAMatchingFormatIs415() {
        do {
            _ = try Registry.builtIn.decode([1, 2], contentType: "image/png")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .unsupportedMediaType)
            #expect(error.impliedStatus == .unsupportedMediaType)
            #expect(error.acceptableTypes.contains(.textPlain))
        }
    }

    @Test func registryIsSendableAndSharedAcrossTasks() async {
        let registry = Registry.builtIn
        let names = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 { group.addTask { registry.decoder(forContentType: "text/csv")?.format.name } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names == Array(repeating: "text", count: 8))
    }
}
