import FoundationEssentials
import Parley

/// The raw files of a document and of every local file its `$ref`s reach, decoded into values
/// with the registry's JSON or YAML format and kept by absolute `file://` URI.
struct DocumentFiles {
    let registry: Registry
    var values: [String: Value] = [:]

    /// The value of the file at `uri`, read and decoded on first use.
    mutating func file(_ uri: String) throws(OpenAPILoadError) -> Value {
        if let value = values[uri] { return value }
        guard uri.hasPrefix("file://") else {
            throw OpenAPILoadError(.unresolvedReference, file: uri,
                                   message: "only local files are read (nothing is fetched from the network)")
        }
        let path = String(uri.dropFirst("file://".count))
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OpenAPILoadError(.unreadable, file: path, message: "the file cannot be read")
        }
        let value = try Self.decode(Array(data), path: path, registry: registry)
        values[uri] = value
        return value
    }

    /// The value at `pointer` (RFC 6901 tokens) of the file at `uri`.
    mutating func value(at location: RawLocation) throws(OpenAPILoadError) -> Value {
        var value = try file(location.file)
        for token in location.pointer {
            let next: Value?
            switch value {
            case .object(let object): next = object[token]
            case .array(let elements): next = Int(token).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
            default: next = nil
            }
            guard let next else {
                throw OpenAPILoadError(.unresolvedReference, file: location.file, pointer: location.pointerText,
                                       message: "the reference names nothing")
            }
            value = next
        }
        return value
    }

    /// Decodes a document file: YAML for `.yaml`/`.yml`, JSON for `.json`, else JSON when it
    /// starts like JSON and YAML otherwise (YAML 1.2 reads JSON too).
    static func decode(_ bytes: [UInt8], path: String, registry: Registry) throws(OpenAPILoadError) -> Value {
        let lowered = path.lowercased()
        let firstByte = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
        let isJSON = lowered.hasSuffix(".json") || (!lowered.hasSuffix(".yaml") && !lowered.hasSuffix(".yml")
                                                    && (firstByte == UInt8(ascii: "{")))
        let type: MediaType = isJSON ? "application/json" : "application/yaml"
        do {
            return try registry.decode(bytes, contentType: type)
        } catch {
            throw OpenAPILoadError(.undecodable, file: path, message: "does not decode as \(type): \(error.message)")
        }
    }
}

/// A place in one of a document's files: the file's URI and a JSON Pointer's tokens.
struct RawLocation: Sendable, Hashable {
    var file: String
    var pointer: [String]

    func appending(_ tokens: String...) -> RawLocation {
        RawLocation(file: file, pointer: pointer + tokens)
    }

    /// The pointer as text (`/paths/~1books/get`).
    var pointerText: String {
        pointer.map { "/" + JSONPointerToken.escaped($0) }.joined()
    }

    /// `file#pointer`, the form a `$ref` takes.
    var uri: String { file + "#" + pointerText }

    /// The location a reference names, relative to this one's file.
    func resolving(_ reference: String) throws(OpenAPILoadError) -> RawLocation {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let target = parts[0].isEmpty ? file : Self.resolve(String(parts[0]), against: file)
        let fragment = parts.count > 1 ? String(parts[1]) : ""
        guard fragment.isEmpty || fragment.hasPrefix("/") else {
            throw OpenAPILoadError(.unresolvedReference, file: file,
                                   message: "\(reference) is not a JSON Pointer reference")
        }
        let tokens = fragment.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            JSONPointerToken.unescaped(PercentEscaping.unescape(Array($0.utf8), plusAsSpace: false))
        }
        return RawLocation(file: target, pointer: Array(tokens))
    }

    /// A relative file reference resolved against a `file://` URI, dot segments removed.
    static func resolve(_ reference: String, against base: String) -> String {
        if reference.contains("://") { return reference }
        let basePath = String(base.dropFirst("file://".count))
        let joined = reference.hasPrefix("/")
            ? reference : String(basePath[..<(basePath.lastIndex(of: "/") ?? basePath.startIndex)]) + "/" + reference
        var segments: [Substring] = []
        for segment in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." { _ = segments.popLast(); continue }
            segments.append(segment)
        }
        return "file:///" + segments.joined(separator: "/")
    }
}
