public import HTTPTypes
public import Parley
public import FoundationEssentials

/// Header fields added to every request a `ParameterRequestSerializer` builds, unless the request
/// sets the same field itself (per-request fields always win).
///
/// ```swift
/// var headers = DefaultHeaders(registry: .linked, userAgent: DefaultHeaders.userAgent(app: "Photos", version: "2.1"))
/// headers.authorization = DefaultHeaders.bearer("t0k3n")
/// // Accept: application/json, application/yaml;q=0.9, …
/// // Accept-Language: fr-CH, fr;q=0.9, en;q=0.8
/// // Accept-Encoding: gzip, deflate
/// // User-Agent: Photos/2.1 Parley/0.1.0
/// ```
public struct DefaultHeaders: Sendable {
    /// The fields in order; an empty value leaves the field out.
    public var fields: HTTPFields

    /// Creates default headers.
    ///
    /// - Parameters:
    ///   - registry: Sets `Accept` to `Registry.acceptHeaderValue(includeAny:structuredOnly:)` (q-values in
    ///     preference order); `nil` sends no `Accept`.
    ///   - languages: Preferred languages, most preferred first; default from the environment
    ///     (``preferredLanguagesFromEnvironment(_:)``).
    ///   - acceptEncoding: Default ``acceptEncodingValue``; `nil` sends none.
    ///   - userAgent: Default ``userAgent(app:version:)`` without an app.
    public init(registry: Registry? = nil, languages: [String] = DefaultHeaders.preferredLanguagesFromEnvironment(),
                acceptEncoding: String? = DefaultHeaders.acceptEncodingValue,
                userAgent: String? = DefaultHeaders.userAgent()) {
        var fields = HTTPFields()
        if let registry {
            let accept = registry.acceptHeaderValue()
            if !accept.isEmpty { fields[.accept] = accept }
        }
        if let language = Self.acceptLanguage(languages) { fields[.acceptLanguage] = language }
        if let acceptEncoding { fields[.acceptEncoding] = acceptEncoding }
        if let userAgent { fields[.userAgent] = userAgent }
        self.fields = fields
    }

    /// The `Authorization` field; set it with ``basic(username:password:)`` or ``bearer(_:)``.
    public var authorization: String? {
        get { fields[.authorization] }
        set { fields[.authorization] = newValue }
    }

    /// Adds every default field that `request` does not already have.
    public func apply(to fields: inout HTTPFields) {
        for field in self.fields where fields[field.name] == nil {
            fields.append(field)
        }
    }

    /// The content codings Parley decodes: `gzip, deflate`.
    public static let acceptEncodingValue = "gzip, deflate"

    /// Parley's version, as written in `User-Agent`.
    public static let parleyVersion = "0.1.0"

    /// `App/1.0 Parley/0.1.0`, or `Parley/0.1.0` without an app. Characters a product token
    /// cannot hold become `-`.
    public static func userAgent(app: String? = nil, version: String? = nil) -> String {
        let parley = "Parley/\(parleyVersion)"
        guard let app, !app.isEmpty else { return parley }
        let product = token(app) + (version.map { "/" + token($0) } ?? "")
        return "\(product) \(parley)"
    }

    /// `Accept-Language` for `languages` (most preferred first): the first six distinct tags,
    /// q stepping down by 0.1 from 1 (`da, en-GB;q=0.9, en;q=0.8`); `nil` for none.
    public static func acceptLanguage(_ languages: [String]) -> String? {
        var seen = Set<String>()
        var tags: [String] = []
        for language in languages {
            let tag = language.replacing("_", with: "-")
            guard !tag.isEmpty,
                  tag.utf8.allSatisfy({ $0 < 0x80 && $0 > 0x20 && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: ";") }),
                  seen.insert(tag.lowercased()).inserted else { continue }
            tags.append(tag)
            if tags.count == 6 { break }
        }
        guard !tags.isEmpty else { return nil }
        return tags.enumerated().map { $0.offset == 0 ? $0.element : "\($0.element);q=0.\(10 - $0.offset)" }
            .joined(separator: ", ")
    }

    /// The user's languages from POSIX locale variables: `LANGUAGE` (a `:` list), else
    /// `LC_ALL`, `LC_MESSAGES`, `LANG`; `fr_CH.UTF-8` becomes `fr-CH` followed by `fr`.
    /// `C` and `POSIX` mean English; nothing set gives `["en"]`.
    public static func preferredLanguagesFromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        var raw: [String] = []
        if let list = environment["LANGUAGE"], !list.isEmpty {
            raw = list.split(separator: ":").map(String.init)
        } else if let one = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ environment[$0] })
                                                                  .first(where: { !$0.isEmpty }) {
            raw = [one]
        }
        var result: [String] = []
        for entry in raw {
            let bare = entry.split(separator: ".").first.map(String.init) ?? entry
            let tag = (bare.split(separator: "@").first.map(String.init) ?? bare).replacing("_", with: "-")
            guard !tag.isEmpty, tag != "C", tag != "POSIX" else { continue }
            if !result.contains(tag) { result.append(tag) }
            if let dash = tag.firstIndex(of: "-") {
                let language = String(tag[..<dash])
                if !result.contains(language) { result.append(language) }
            }
        }
        return result.isEmpty ? ["en"] : result
    }

    /// `Basic base64(username:password)` (RFC 7617, UTF-8).
    public static func basic(username: String, password: String) -> String {
        "Basic " + Base64Text.string(from: Array("\(username):\(password)".utf8))
    }

    /// `Bearer token` (RFC 6750).
    public static func bearer(_ token: String) -> String {
        "Bearer \(token)"
    }

    private static func token(_ text: String) -> String {
        let allowed = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        return String(decoding: text.utf8.map { allowed.contains($0) ? $0 : UInt8(ascii: "-") }, as: UTF8.self)
    }
}
