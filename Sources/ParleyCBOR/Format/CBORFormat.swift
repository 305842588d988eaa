public import Parley

/// CBOR (RFC 8949) and CBOR sequences (RFC 8742), read into and written from the value tree, in Swift.
///
/// Decodes `application/cbor`, `application/*+cbor`, `application/cbor-seq` and
/// `application/*+cbor-seq` (a `+cbor` type of another top-level type reaches the format too: the
/// engine maps the suffix to `application/cbor`); encodes
/// `application/cbor` and `application/cbor-seq`. A sequence decodes to an array of its items;
/// an array encoded as a sequence writes its items one after another (any other value is a
/// sequence of one).
///
/// ```swift
/// let cbor = CBORFormat()
/// let bytes = try cbor.encode(["id": 7, "ok": true])   // A2 62 69 64 07 62 6F 6B F5
/// let value = try cbor.decode(bytes)
/// ```
///
/// See the ParleyCBOR documentation for what each CBOR item decodes to, the map-key rules,
/// preferred and deterministic encoding, and the limits.
public struct CBORFormat: Format {
    /// The options in force.
    public let options: Options

    /// Creates the format.
    ///
    /// - Parameter options: How dates, map keys and bignums are read and written.
    public init(options: Options) {
        self.options = options
    }

    /// Creates the format with the default options.
    public init() {
        self.options = Options()
    }

    /// `"cbor"`.
    public var name: String { Self.formatName }

    /// `application/cbor`, `application/*+cbor`, `application/cbor-seq`, `application/*+cbor-seq`.
    public var decodableMediaTypes: [MediaType] {
        [Self.applicationCBOR, "application/*+cbor", Self.applicationCBORSequence, "application/*+cbor-seq"]
    }

    /// `application/cbor`, `application/cbor-seq`.
    public var encodableMediaTypes: [MediaType] { [Self.applicationCBOR, Self.applicationCBORSequence] }

    /// `application/cbor`.
    public static let applicationCBOR: MediaType = "application/cbor"
    /// `application/cbor-seq` (RFC 8742).
    public static let applicationCBORSequence: MediaType = "application/cbor-seq"

    static let formatName = "cbor"

    /// The tag of `Value/tagged(_:_:)` values that stand for CBOR tag `number` when Parley
    /// has no case of its own for it: `"cbor.tag.<number>"`, such as `"cbor.tag.32"` (a URI).
    public static func tag(_ number: UInt64) -> String {
        "cbor.tag.\(number)"
    }

    /// The tag of simple values without a case of their own: `.tagged("cbor.simple", .integer(n))`.
    public static let simpleValueTag = "cbor.simple"
    /// The tag of `undefined`: `.tagged("cbor.undefined", .null)`.
    public static let undefinedTag = "cbor.undefined"
    /// The tag of a map kept with its keys: `.tagged("cbor.map", .array([[key, value], …]))`.
    public static let mapTag = "cbor.map"

    /// Whether `mediaType` names a sequence: `application/cbor-seq` or a `+cbor-seq` type.
    static func isSequence(_ mediaType: MediaType) -> Bool {
        mediaType.subtype == "cbor-seq" || mediaType.suffix == "cbor-seq"
    }

    /// Decodes one CBOR data item, or for a sequence type every item into an array.
    ///
    /// - Parameters:
    ///   - bytes: The body: exactly one item (a sequence: zero or more).
    ///   - context: The media type (a sequence or not) and the limits in force.
    /// - Returns: The value.
    /// - Throws: `FormatError` with `FormatError/Code/truncated` (also for a declared length
    ///   longer than the input), `FormatError/Code/malformed` (reserved or misplaced bytes, a
    ///   tag 0–4 with the wrong content, trailing bytes), `FormatError/Code/invalidText` or
    ///   `FormatError/Code/limitExceeded`, each with the byte offset.
    public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        try context.limits.checkBodySize(bytes.count, format: name)
        var reader = CBORReader(bytes.bindMemory(to: UInt8.self), limits: context.limits, options: options)
        return Self.isSequence(context.mediaType) ? try reader.readSequence() : try reader.readSingle()
    }

    /// Encodes a value with preferred serialization (RFC 8949 §4.1), deterministically (§4.2.1) when
    /// ``Options-swift.struct/isDeterministic`` is set.
    ///
    /// - Throws: `FormatError/Code/unsupportedValue` for a date with no CBOR form (not finite,
    ///   or no RFC 3339 text when written as text), a number that is not a number, or an
    ///   integer needing more than ``Options-swift.struct/maxBignumBytes`` bytes.
    public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        var writer = CBORWriter(options: options)
        if Self.isSequence(context.mediaType), case .array(let items) = value {
            for item in items { try writer.write(item) }
        } else {
            try writer.write(value)
        }
        return writer.finish()
    }
}
