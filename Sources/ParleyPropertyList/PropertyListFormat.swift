import FoundationEssentials
public import Parley

/// Property lists, XML and binary (`bplist00`), read and written in Swift without Foundation's
/// serializer.
///
/// The decoder detects the form by content, whatever the label says. Integers cover −2^63 …
/// 2^64−1 (above `Int64.max` as `Value/number(_:)` text), reals, dates (`Value/date(_:)`),
/// data (`Value/bytes(_:)`) and UIDs (`Value.tagged("uid", .integer(n))`); sets read as arrays.
///
/// Limits: `maxBodyBytes`; `maxDepth` (nesting); `maxNodes` (binary object count and values
/// produced); `maxExpansionRatio` (a binary object referenced again is copied into the tree, and
/// each copy counts one unit plus its string or data bytes against 64 KiB + ratio × the
/// document's size, so shared references cannot multiply memory). Binary reference cycles are
/// rejected; XML entities other than the five predefined ones and character references are never
/// expanded (an entity bomb or external entity fails with `FormatError/Code/forbidden`) and a
/// DOCTYPE is skipped, never fetched.
///
/// Encoding writes `application/x-plist` as XML and `application/x-bplist` as binary; `null`
/// and tags other than `uid` have no property-list form and throw
/// `FormatError/Code/unsupportedValue`. XML dates carry at most milliseconds.
public struct PropertyListFormat: Format {
    /// Creates the property-list format.
    public init() {}

    public var name: String { "plist" }

    /// `application/x-plist` (either form), `application/x-bplist` and the alias `text/x-plist`.
    public var decodableMediaTypes: [MediaType] {
        ["application/x-plist", "application/x-bplist", "text/x-plist"]
    }

    /// `application/x-plist` (written as XML) and `application/x-bplist` (binary).
    public var encodableMediaTypes: [MediaType] { ["application/x-plist", "application/x-bplist"] }

    public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        try context.limits.checkBodySize(bytes.count, format: name)
        let b = bytes.bindMemory(to: UInt8.self)
        if b.starts(with: Array("bplist".utf8)) {
            var reader = try BinaryPropertyListReader(b, limits: context.limits)
            return try reader.read()
        }
        // XML: transcode UTF-16/32 (by byte-order mark) to UTF-8 first.
        if let (charset, _) = Charset.byteOrderMark(in: bytes), charset != .utf8 {
            let declared = MediaType(type: "application", subtype: "x-plist",
                                     parameters: [.init(name: "charset", value: charset.description)])
            let text = try Charset.decodeText(bytes, mediaType: declared, format: name)
            return try Array(text.utf8).withUnsafeBufferPointer { utf8 throws(FormatError) in
                var reader = XMLPropertyListReader(utf8, limits: context.limits)
                return try reader.read()
            }
        }
        var start = 0
        if b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { start = 3 }
        let body = UnsafeBufferPointer(rebasing: b[start...])
        if let offset = Charset.firstInvalidUTF8(body) {
            throw FormatError(.invalidText, format: name, "invalid UTF-8", location: .init(byteOffset: offset + start))
        }
        var reader = XMLPropertyListReader(body, limits: context.limits)
        return try reader.read()
    }

    public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        context.mediaType.subtype == "x-bplist"
            ? try BinaryPropertyListWriter.write(value)
            : try XMLPropertyListWriter.write(value)
    }
}
