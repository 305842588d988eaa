public import Parley

/// JSON (RFC 8259): a hand-written single-pass parser and writer on bytes.
///
/// Decodes `application/json`, any `application/*+json`, and the alias `text/json` (and
/// `text/javascript` when ``Options/decodesJavaScriptLabels`` is set); encodes
/// `application/json`, always as UTF-8.
///
/// ```swift
/// let json = JSONFormat()
/// let value = try json.decode(Array(#"{"id": 1, "tags": ["a"]}"#.utf8))
/// let user = try json.decode(User.self, from: body)
/// let bytes = try json.encode(value)
/// ```
///
/// **Numbers** keep their exact value: an integer literal that fits 64 bits decodes to
/// `Value/integer(_:)`; a literal with a fraction or exponent and at most 15 significant
/// digits whose value is a finite, normal `Double` (or zero) to `Value/float(_:)`; anything
/// else (`12345678901234567890123`, `1e400`, `0.1000000000000000055`, `-0`) to
/// `Value/number(_:)` holding the literal text, which the writer emits verbatim. Floats are
/// written in Swift's shortest round-trip form and keep a fraction (`1.0`), so they never read
/// back as integers.
///
/// **Text** is UTF-8 (RFC 8259 §8.1). A UTF-8 byte-order mark is skipped. A `charset`
/// parameter naming another charset, a UTF-16 or UTF-32 byte-order mark, or the zero-byte
/// pattern of UTF-16/32 text without a mark (RFC 4627 §3) makes the decoder transcode to
/// UTF-8 first; error offsets then count bytes of the transcoded text. Invalid UTF-8 and
/// `\u` escapes of lone surrogates are rejected with `FormatError/Code/invalidText`; the
/// writer never produces either (Swift strings hold only valid Unicode).
///
/// **Values JSON has no type for** are written as: `Value/bytes(_:)` a base64 string,
/// `Value/date(_:)` an RFC 3339 UTC string (`2024-05-06T07:08:09Z`, milliseconds when
/// present), `Value/tagged(_:_:)` its inner value. Non-finite floats and `Value/number(_:)`
/// text that is not a JSON number throw `FormatError/Code/unsupportedValue`.
///
/// **Limits**: `DecodingLimits/maxBodyBytes`, `DecodingLimits/maxDepth` (nesting of
/// arrays and objects) and `DecodingLimits/maxNodes` (every value counts, containers
/// included) apply.
public struct JSONFormat: Format {
    /// How this format reads and writes.
    public let options: Options

    /// Creates the format.
    ///
    /// - Parameter options: Decoding and encoding options; defaults follow RFC 8259.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Creates the format with the default options.
    public init() {
        self.options = Options()
    }

    /// `"json"`.
    public var name: String { Self.name }

    /// The format's name, for the static paths that have no format value to ask.
    static var name: String { "json" }

    /// `application/json`, `application/*+json`, `text/json`; `text/javascript` too when
    /// ``Options/decodesJavaScriptLabels`` is set.
    public var decodableMediaTypes: [MediaType] {
        options.decodesJavaScriptLabels ? Self.jsonAndJavaScriptTypes : Self.jsonTypes
    }

    /// `application/json`.
    public var encodableMediaTypes: [MediaType] { [Self.applicationJSON] }

    /// `true`: JSON is text (UTF-8).
    public var isTextual: Bool { true }

    static let applicationJSON: MediaType = "application/json"
    static let anyJSONSuffix: MediaType = "application/*+json"
    static let textJSON: MediaType = "text/json"
    static let textJavaScript: MediaType = "text/javascript"
    /// The decodable types, built once: `decode(_:)` without a type reads the first of them.
    static let jsonTypes = [applicationJSON, anyJSONSuffix, textJSON]
    static let jsonAndJavaScriptTypes = jsonTypes + [textJavaScript]

    /// Decodes a JSON body.
    ///
    /// The whole body is validated first; objects in the result then build their members on
    /// demand (see `Value/Object/isDeferred` and the module overview).
    ///
    /// - Parameters:
    ///   - bytes: The body.
    ///   - context: The received media type (its `charset`, if any, is honoured) and limits.
    /// - Returns: The value.
    /// - Throws: `FormatError` with `FormatError/Code/malformed` or
    ///   `FormatError/Code/truncated` (with byte offset, line and column) for input that
    ///   breaks RFC 8259, `FormatError/Code/invalidText` for invalid UTF-8 or a lone
    ///   surrogate escape, `FormatError/Code/limitExceeded` for `DecodingLimits/maxBodyBytes`,
    ///   `DecodingLimits/maxDepth` or `DecodingLimits/maxNodes`, and
    ///   `FormatError/Code/unsupportedMediaType` for a `charset` Parley cannot decode.
    public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        try decodeValue(bytes, context: context)
    }

    /// The typed-throws form of ``decode(_:context:)``.
    func decodeValue(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws(FormatError) -> Value {
        try withUTF8Text(bytes, context: context) { (text, offsetBase) throws(FormatError) -> Value in
            switch try JSONTape.parse(text, options: options, limits: context.limits, offsetBase: offsetBase) {
            case .tape(let tape) where options.removesNullValues:
                return tape.valueRemovingNulls(at: 0, arrayElementsToo: options.removesNullArrayElements)
            case .tape(let tape): return tape.value(at: 0)
            case .blank(let value): return value
            }
        }
    }

    /// Runs `body` on the body as UTF-8 text, after the size limit is checked: a UTF-8
    /// byte-order mark is skipped (`offsetBase` is then 3, for error locations), other
    /// charsets are transcoded first (see ``textEncoding(of:charset:)``).
    func withUTF8Text<R>(
        _ bytes: UnsafeRawBufferPointer, context: DecodingContext,
        _ body: (_ text: UnsafeBufferPointer<UInt8>, _ offsetBase: Int) throws(FormatError) -> R
    ) throws(FormatError) -> R {
        try withUTF8Text(bytes, mediaType: context.mediaType, limits: context.limits, body)
    }

    /// ``withUTF8Text(_:context:_:)`` with the context's parts, for callers that have no
    /// context to hand (making one copies the media type).
    func withUTF8Text<R>(
        _ bytes: UnsafeRawBufferPointer, mediaType: MediaType, limits: DecodingLimits,
        _ body: (_ text: UnsafeBufferPointer<UInt8>, _ offsetBase: Int) throws(FormatError) -> R
    ) throws(FormatError) -> R {
        try Self.withUTF8Text(bytes, mediaType: mediaType, limits: limits, body)
    }

    /// ``withUTF8Text(_:mediaType:limits:_:)``, which reads nothing of a format but its name,
    /// for callers that have no format to hand (`JSONTopLevelObject/Reader` keeps the options
    /// alone: passing a format copied them for every document).
    static func withUTF8Text<R>(
        _ bytes: UnsafeRawBufferPointer, mediaType: MediaType, limits: DecodingLimits,
        _ body: (_ text: UnsafeBufferPointer<UInt8>, _ offsetBase: Int) throws(FormatError) -> R
    ) throws(FormatError) -> R {
        try limits.checkBodySize(bytes.count, format: name)
        let buffer = bytes.bindMemory(to: UInt8.self)
        switch Self.textEncoding(of: buffer, charset: mediaType.charset) {
        case .utf8(let skip):
            return try body(UnsafeBufferPointer(rebasing: buffer[skip...]), skip)
        case .transcode(let charset):
            let text = try Charset.decodeText(bytes, mediaType: mediaType, default: charset, format: name)
            return try Array(text.utf8).withUnsafeBufferPointer { (utf8) throws(FormatError) -> R in try body(utf8, 0) }
        }
    }

    /// Encodes a value as compact (or, by option, pretty) UTF-8 JSON.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - context: The chosen media type; the output is UTF-8 whatever its `charset` says.
    /// - Returns: The JSON text.
    /// - Throws: `FormatError/Code/unsupportedValue` for a non-finite float or
    ///   `Value/number(_:)` text that is not a JSON number.
    public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        try encodeValue(value)
    }

    /// The typed-throws form of ``encode(_:context:)``.
    func encodeValue(_ value: Value, capacityHint: Int = 1024) throws(FormatError) -> [UInt8] {
        let writer = JSONWriter(options: options, capacityHint: capacityHint)
        try writer.write(value)
        return writer.output.makeArray()
    }
}
