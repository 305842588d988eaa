public import Parley

/// YAML on the system libyaml: decodes YAML 1.2 streams into `Value` with the core
/// schema, and writes block-style YAML that reads back to the same value.
///
/// Decoding uses libyaml's event API and builds the tree with an explicit stack, so deep input
/// never recurses on the machine stack. Plain scalars resolve with the YAML 1.2 core schema:
/// `~`, `null`, `Null`, `NULL` and the empty scalar are null; `true`/`True`/`TRUE` and
/// `false`/`False`/`FALSE` are Booleans; decimal, `0o` octal and `0x` hexadecimal integers are
/// integers (beyond 64 bits, `Value.number(_:)` exact text); decimal and exponent
/// forms, `.inf` and `.nan` are floats; everything else, and every quoted or block scalar, is a
/// string. YAML 1.1 forms (`yes`, `no`, `on`, `off`, `0777` as octal, `1_000`, `1:20`) are *not*
/// special: `yes` is the string `"yes"` and `0777` the decimal integer 777, as in 1.2.
///
/// ```swift
/// let value = try YAMLFormat().decode(Array("name: Ada\ntags: [math, engines]\n".utf8))
/// value["tags"]?[1]     // .string("engines")
/// let text = try YAMLFormat().encode(value)   // "name: Ada\ntags:\n  - math\n  - engines\n"
/// ```
///
/// Limits that apply: `DecodingLimits.maxBodyBytes`, `DecodingLimits.maxDepth`
/// (collection nesting, aliased subtrees included), `DecodingLimits.maxNodes` (nodes
/// produced, alias expansions included) and `DecodingLimits.maxExpansionRatio`: aliases
/// may produce at most 65,536 + ratio × input bytes *units*, a unit being one node or one byte of
/// scalar text, so billion-laughs style documents and large aliased scalars stop early with
/// `FormatError.Code.limitExceeded`. The text of collections used as mapping keys (rendered in
/// flow style) counts against the same budget: nested complex keys re-quote their inner keys at
/// every level and would otherwise grow exponentially.
///
/// An object a JSON body decoded to (built on demand, `Value.Object.isDeferred`) is written
/// straight from the parsed JSON document, without building its members as values: the same
/// text and the same errors as for its members built, in less time (a JSON-to-YAML transcode).
public struct YAMLFormat: Format {
    /// What to do with a tag Parley does not construct (`!point`, `!!python/object:…`, `!!set`).
    public var unknownTags: UnknownTagPolicy
    /// Which documents of a stream the decoder returns.
    public var documents: DocumentSelection
    /// What to do when a mapping repeats a key.
    public var duplicateKeys: DuplicateKeyPolicy
    /// Whether untagged plain scalars that look like YAML 1.1 timestamps
    /// (`2001-12-14t21:59:43.10-05:00`, `2002-12-14`) decode as `Value.date(_:)`.
    ///
    /// Off by default: the 1.2 core schema has no timestamps, so they stay strings. Scalars tagged
    /// `!!timestamp` always decode as dates.
    public var resolvesPlainTimestamps: Bool

    /// Creates the YAML format.
    ///
    /// - Parameters:
    ///   - unknownTags: Keep unknown tags as `Value.tagged(_:_:)` (default) or reject them.
    ///   - documents: Return the first document (default) or all documents of a stream.
    ///   - duplicateKeys: Reject repeated mapping keys (default) or keep every member.
    ///   - resolvesPlainTimestamps: Read untagged timestamp-like plain scalars as dates (default `false`).
    public init(unknownTags: UnknownTagPolicy = .keep,
                documents: DocumentSelection = .first,
                duplicateKeys: DuplicateKeyPolicy = .reject,
                resolvesPlainTimestamps: Bool = false) {
        self.unknownTags = unknownTags
        self.documents = documents
        self.duplicateKeys = duplicateKeys
        self.resolvesPlainTimestamps = resolvesPlainTimestamps
    }

    /// `"yaml"`.
    public var name: String { "yaml" }

    /// `application/yaml`, `application/*+yaml` and the deprecated aliases
    /// `application/x-yaml`, `text/yaml` and `text/x-yaml`.
    public var decodableMediaTypes: [MediaType] {
        [MediaType(type: "application", subtype: "yaml"),
         MediaType(type: "application", subtype: "*+yaml"),
         MediaType(type: "application", subtype: "x-yaml"),
         MediaType(type: "text", subtype: "yaml"),
         MediaType(type: "text", subtype: "x-yaml")]
    }

    /// `application/yaml`.
    public var encodableMediaTypes: [MediaType] { [MediaType(type: "application", subtype: "yaml")] }

    /// `true`: YAML is text (UTF-8 when written).
    public var isTextual: Bool { true }

    /// Decodes a YAML stream.
    ///
    /// The body is read as UTF-8 or UTF-16 (by byte-order mark); a `charset` parameter naming
    /// another character set is honoured by transcoding first.
    ///
    /// - Parameters:
    ///   - bytes: The YAML text.
    ///   - context: The received media type and the limits in force.
    /// - Returns: The first document (or every document, per ``documents``); `null` for an empty stream.
    /// - Throws: `FormatError` with code `FormatError.Code.malformed` (syntax,
    ///   undefined or recursive aliases, duplicate keys, a scalar that does not fit its tag),
    ///   `FormatError.Code.truncated` (the stream ends inside a construct),
    ///   `FormatError.Code.invalidText` (bad encoding),
    ///   `FormatError.Code.limitExceeded` and `FormatError.Code.forbidden`
    ///   (an unknown tag under ``UnknownTagPolicy/reject``), each with a 1-based line and column.
    public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        try context.limits.checkBodySize(bytes.count, format: name)
        if let charset = context.mediaType.charset, charset.lowercased() != "utf-8", charset.lowercased() != "utf8" {
            let text = try Charset.decodeText(bytes, mediaType: context.mediaType, format: name)
            var utf8 = Array(text.utf8)
            return try utf8.withUnsafeMutableBytes { buffer in
                try decodeStream(UnsafeRawBufferPointer(buffer), limits: context.limits, reportsByteOffsets: false)
            }
        }
        return try decodeStream(bytes, limits: context.limits, reportsByteOffsets: true)
    }

    /// Encodes a value as one block-style YAML document.
    ///
    /// Strings are quoted only when they would read back as something else; bytes are written as
    /// `!!binary`, dates as `!!timestamp`, `Value.tagged(_:_:)` values with their tag.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - context: The media type chosen for the body.
    /// - Returns: UTF-8 YAML text ending with a line break.
    /// - Throws: `FormatError` with code `FormatError.Code.unsupportedValue`
    ///   for a tagged value whose content is itself tagged, bytes or a date (a YAML node has one
    ///   tag), `Value.number(_:)` text that is not a number, or an object that repeats a key
    ///   (YAML mapping keys are unique; JSON objects may repeat them).
    public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        var writer = YAMLWriter(format: name)
        do {
            try writer.writeDocument(value)
        } catch {
            // Written from a parsed document's tape, an object's keys are checked as they come;
            // the tree checks each object's keys before its values: its error is the one thrown.
            var tree = YAMLWriter(format: name, streamsDeferredObjects: false)
            try tree.writeDocument(value)
            return tree.bytes
        }
        return writer.bytes
    }

    private func decodeStream(_ bytes: UnsafeRawBufferPointer, limits: DecodingLimits,
                              reportsByteOffsets: Bool) throws -> Value {
        let parser = try EventParser(bytes, format: name, reportsByteOffsets: reportsByteOffsets)
        var builder = TreeBuilder(options: self, limits: limits, inputLength: bytes.count, parser: parser)
        return try builder.run()
    }
}
