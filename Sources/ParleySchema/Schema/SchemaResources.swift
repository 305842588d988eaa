import FoundationEssentials
public import Parley

/// The documents a schema's `$ref`s may reach beyond itself: nothing is ever fetched from the
/// network, only what is registered here is found.
public struct SchemaResources: Sendable {
    /// Documents by absolute URI (without a fragment).
    var documents: [String: Value] = [:]
    /// Folders served under a URI prefix, with the decoder for their files.
    var folders: [(prefix: String, path: String, decode: @Sendable ([UInt8]) throws -> Value)] = []

    /// Creates an empty set (the bundled meta-schemas are always available).
    public init() {}

    /// Registers `document` under `uri` (a trailing empty fragment is ignored).
    public mutating func register(_ document: Value, at uri: String) {
        documents[URIReference.split(uri).base] = document
    }

    /// Serves the files of `path` under `prefix`: `prefix` + `a/b.json` reads `path/a/b.json`
    /// and decodes it with `decode` (for example a JSON format's decoder).
    ///
    /// - Parameters:
    ///   - path: A folder on disk.
    ///   - prefix: An absolute URI ending in `/`.
    ///   - decode: Turns a file's bytes into a document.
    public mutating func serve(
        folder path: String, under prefix: String,
        decode: @escaping @Sendable ([UInt8]) throws -> Value
    ) {
        folders.append((prefix, path, decode))
    }

    /// The document at `uri` (no fragment), if registered, bundled or in a served folder.
    func document(at uri: String) throws(SchemaError) -> Value? {
        if let document = documents[uri] ?? MetaSchemas.documents[uri] { return document }
        for folder in folders where uri.hasPrefix(folder.prefix) {
            let relative = String(uri.dropFirst(folder.prefix.count))
            guard !relative.split(separator: "/").contains("..") else { continue }
            let file = folder.path + "/" + relative
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            do {
                return try folder.decode(Array(data))
            } catch {
                throw SchemaError(
                    code: .unresolvedReference, message: "\(file) does not decode: \(error)",
                    schemaLocation: uri)
            }
        }
        return nil
    }
}
