public import Parley

// The negotiation hot path's inputs: the Accept headers real clients send, against six offers a
// JSON/XML/YAML API has, and a registry like an application's. NegotiationBenchmarks times them;
// PerfGate counts their instructions.

/// Six offers of a JSON/XML/YAML API, in preference order.
public let apiOffers: [MediaType] = [
    "application/json", "application/xml", "application/yaml", "text/html", "text/plain", "image/png",
]

/// The offer lists a transcoded gateway answer negotiates one `Accept` against: the encodable
/// types, the fallback types whose format holds the value, and a problem's types.
public let gatewayOfferLists: [[MediaType]] = [
    apiOffers,
    ["application/json", "application/xml", "application/yaml"],
    ["application/problem+json", "application/problem+xml"] + apiOffers,
]

/// `Accept` headers as browsers and tools send them, by client.
public let clientAcceptHeaders: [(client: String, accept: String)] = [
    ("chrome", """
        text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,\
        application/signed-exchange;v=b3;q=0.7
        """),
    ("firefox", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
    ("curl", "*/*"),
    ("java-legacy", "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2"),
]

/// A hostile-sized `Accept`: 999 ranges that match nothing, then one that does.
public let thousandElementAccept = (0..<999).map { "application/x-type-\($0);q=0.\($0 % 10)" }.joined(separator: ", ")
    + ", application/yaml"

/// A format that only declares its media types, so registry lookups are measured alone.
public struct DeclaredFormat: Format {
    public var name: String
    public var decodableMediaTypes: [MediaType]
    public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value { .null }
}

/// A registry shaped like an application's: JSON, XML, YAML, plist and image types, then the built-ins.
public let applicationRegistry = Registry(formats: [
    DeclaredFormat(name: "json", decodableMediaTypes: ["application/json", "application/*+json", "text/json"]),
    DeclaredFormat(name: "xml", decodableMediaTypes: ["application/xml", "text/xml", "application/*+xml"]),
    DeclaredFormat(name: "yaml", decodableMediaTypes: ["application/yaml", "application/x-yaml", "text/yaml"]),
    DeclaredFormat(name: "plist", decodableMediaTypes: ["application/x-plist"]),
    DeclaredFormat(name: "image", decodableMediaTypes: ["image/png", "image/jpeg", "image/gif"]),
] + Registry.builtInFormats)

/// An RFC 9457 problem type, matched through the `+json` suffix range.
public let problemJSON = try! MediaType(parsing: "application/problem+json; charset=utf-8")

/// The four codings Parley writes, in a server's order of preference.
public let serverCodings = ["zstd", "br", "gzip", "deflate"]
/// Chrome's `Accept-Encoding`.
public let chromeAcceptEncoding = "gzip, deflate, br, zstd"
/// A site in four languages.
public let siteLanguages = ["de", "en", "fr", "ja"]
/// A British English browser's `Accept-Language`.
public let britishAcceptLanguage = "en-GB,en;q=0.9,de;q=0.8"
