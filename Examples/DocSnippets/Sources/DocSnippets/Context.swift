import DocSnippetSupport
import Testing

// The types the docs' snippets name without declaring them, as a reader's own code would have them.

/// The user a client snippet decodes.
struct User: Codable, Sendable {
    var id: Int
    var name: String
}

/// A format the testing snippets check: the `KeyValueFormat` of the WritingAFormat article, reduced
/// to what they need.
struct KeyValueFormat: Format {
    var name: String { "kv" }
    var decodableMediaTypes: [MediaType] { ["application/vnd.example.kv"] }
    var encodableMediaTypes: [MediaType] { ["application/vnd.example.kv"] }
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value { .object([:]) }
    func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] { [] }
}

/// A decode-only format, as ParleyTestKit's article checks one.
struct MyDecodeOnlyFormat: Format {
    var name: String { "decode-only" }
    var decodableMediaTypes: [MediaType] { ["application/vnd.example.decode-only"] }
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value { .bytes(Array(bytes)) }
}
