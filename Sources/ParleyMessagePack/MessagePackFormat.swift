public import Parley

/// MessagePack: the whole type system read into and written from the value tree, in Swift.
///
/// Decodes `application/msgpack`, the alias `application/x-msgpack` and any
/// `application/*+msgpack`; encodes `application/msgpack`.
///
/// ```swift
/// let msgpack = MessagePackFormat()
/// let bytes = try msgpack.encode(["id": 7, "tags": ["a"]])   // 0x82 0xA2 'i' 'd' 0x07 …
/// let value = try msgpack.decode(bytes)
/// ```
///
/// **Types**, decoding → encoding:
/// - nil, false, true ↔ `Value/null`, `Value/bool(_:)`.
/// - Every integer form (positive and negative fixint, `uint8`…`uint64`, `int8`…`int64`) →
///   `Value/integer(_:)`; a `uint64` above `Int64.max` → `Value/number(_:)` holding its
///   decimal text, so no integer is ever rounded. Integers are written in the smallest form.
/// - `float32` and `float64` → `Value/float(_:)` (a `float32` widens exactly); floats are
///   written as `float64`.
/// - `Value/number(_:)` is written as an integer when its text is one in −2^63…2^64−1, as a
///   `float64` when a `Double` holds its decimal value (its text is the `Double`'s shortest
///   form, as JSON gives for `0.30000000000000004`); any other number (`1e400`, 30-digit
///   integers) throws `FormatError/Code/unsupportedValue` unless
///   ``Options-swift.struct/roundsInexactNumbers`` is set.
/// - `str` ↔ `Value/string(_:)` (must be valid UTF-8, else `FormatError/Code/invalidText`);
///   `bin` ↔ `Value/bytes(_:)`.
/// - `array` ↔ `Value/array(_:)`; `map` ↔ `Value/object(_:)` in wire order. Map keys that
///   are strings stay strings, integer keys become their decimal text; other key types have no
///   object-key form and throw `FormatError/Code/unsupportedValue`.
/// - The timestamp extension (type −1, all three sizes) ↔ `Value/date(_:)`, written in the
///   smallest size that holds the date (nanoseconds rounded to the nearest).
/// - Any other extension type `n` ↔ `Value.tagged("msgpack.ext.n", .bytes(payload))`
///   (``extensionTag(_:)``). Other tags write their inner value.
///
/// **From JSON**: an object a JSON body decoded to (built on demand, `Value/Object/isDeferred`)
/// is written straight from the parsed JSON document, without building its members as values:
/// the same bytes and errors as for its members built, in less time (a JSON-to-MessagePack
/// transcode).
///
/// **Limits**: `DecodingLimits/maxBodyBytes`, `DecodingLimits/maxDepth` (nesting of arrays
/// and maps; the reader keeps its own stack, never the machine's) and
/// `DecodingLimits/maxNodes` (every value and key counts). A declared length or element count
/// larger than the bytes left is `FormatError/Code/truncated` before anything is allocated.
/// Bytes after the value are `FormatError/Code/malformed`.
public struct MessagePackFormat: Format {
    /// How the format writes values MessagePack cannot hold exactly.
    public struct Options: Sendable, Hashable {
        /// Whether a `Value/number(_:)` that is neither a 64-bit integer nor exactly a
        /// `Double` is written as the nearest `float64` (lossy) instead of throwing
        /// `FormatError/Code/unsupportedValue`. Default `false`.
        public var roundsInexactNumbers: Bool

        /// Creates options.
        public init(roundsInexactNumbers: Bool = false) {
            self.roundsInexactNumbers = roundsInexactNumbers
        }
    }

    /// The options in force.
    public let options: Options

    /// Creates the format.
    ///
    /// - Parameter options: How values without an exact MessagePack form are written.
    public init(options: Options) {
        self.options = options
    }

    /// Creates the format with the default options.
    public init() {
        self.options = Options()
    }

    /// `"msgpack"`.
    public var name: String { Self.formatName }

    /// `application/msgpack`, `application/x-msgpack`, `application/*+msgpack`.
    public var decodableMediaTypes: [MediaType] {
        ["application/msgpack", "application/x-msgpack", "application/*+msgpack"]
    }

    /// `application/msgpack`.
    public var encodableMediaTypes: [MediaType] { ["application/msgpack"] }

    static let formatName = "msgpack"

    /// The tag of `Value/tagged(_:_:)` values that stand for MessagePack extension `type`:
    /// `"msgpack.ext.<type>"`, such as `"msgpack.ext.5"` or `"msgpack.ext.-2"`.
    public static func extensionTag(_ type: Int8) -> String {
        "msgpack.ext.\(type)"
    }

    /// Decodes one MessagePack value.
    ///
    /// - Parameters:
    ///   - bytes: The body: exactly one value.
    ///   - context: The limits in force (the media type's parameters are not used).
    /// - Returns: The value.
    /// - Throws: `FormatError` with `FormatError/Code/truncated`, `FormatError/Code/malformed`
    ///   (the reserved byte `0xC1`, a bad timestamp, trailing bytes), `FormatError/Code/invalidText`,
    ///   `FormatError/Code/unsupportedValue` (a map key that is not a string or integer) or
    ///   `FormatError/Code/limitExceeded`, each with the byte offset.
    public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        try context.limits.checkBodySize(bytes.count, format: name)
        var reader = MessagePackReader(bytes.bindMemory(to: UInt8.self), limits: context.limits)
        return try reader.read()
    }

    /// Encodes a value as MessagePack.
    ///
    /// - Throws: `FormatError/Code/unsupportedValue` for a `Value/number(_:)` with no exact
    ///   MessagePack form (see ``Options-swift.struct``), a date outside the timestamp range, or a
    ///   string, byte string or container longer than 2^32 − 1.
    public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        var writer = MessagePackWriter(options: options)
        try writer.write(value)
        return writer.output.makeArray()
    }
}
