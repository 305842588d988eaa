public import Parley

/// Protocol Buffers messages, read and written dynamically from descriptor sets, as the ProtoJSON
/// (proto3 JSON) mapping says.
///
/// Decodes and encodes `application/protobuf`, `application/x-protobuf` and
/// `application/vnd.google.protobuf`. The message type comes from the media type's `messageType`
/// (or `proto`) parameter, else from ``Options-swift.struct/messageType``:
///
/// ```swift
/// let set = try Array(Data(contentsOf: URL(filePath: "api.binpb")))   // protoc --descriptor_set_out --include_imports
/// let protobuf = try ProtobufFormat(descriptorSets: [set])
/// let value = try protobuf.decode(body, as: "application/protobuf; messageType=shop.Order")
/// let bytes = try protobuf.encode(value, as: "application/protobuf; messageType=shop.Order")
/// ```
///
/// The format a registry builds with `init()` has no schema: it names the media types (so they
/// negotiate) and throws ``missingSchema`` when asked to read or write. Register a configured
/// instance instead. See the ParleyProtobuf documentation for the mapping, the options and the limits.
public struct ProtobufFormat: Format {
    /// How messages are chosen and read.
    public struct Options: Sendable, Hashable {
        /// The message type of bodies whose media type names none (full name, `pkg.Msg`).
        public var messageType: String?
        /// Whether fields the schema does not know are kept, as the raw wire bytes of all of them
        /// under ``ProtobufFormat/unknownFieldsKey`` (written back verbatim when encoding), or
        /// dropped as ProtoJSON does. Default `false`.
        public var keepsUnknownFields: Bool
        /// The most bytes of unknown fields one body may keep. Default 1 MiB.
        public var maxUnknownFieldBytes: Int
        /// The deepest nesting of messages (and groups skipped) read or written; the smaller of this and
        /// `DecodingLimits/maxDepth` applies. Default 100, as Google's parsers use.
        public var maxDepth: Int

        /// Creates options.
        public init(messageType: String? = nil, keepsUnknownFields: Bool = false,
                    maxUnknownFieldBytes: Int = 1 << 20, maxDepth: Int = 100) {
            self.messageType = messageType
            self.keepsUnknownFields = keepsUnknownFields
            self.maxUnknownFieldBytes = maxUnknownFieldBytes
            self.maxDepth = maxDepth
        }
    }

    /// The message types, or `nil` for the unconfigured format a registry builds by default.
    public let schema: ProtobufSchema?
    /// The options in force.
    public let options: Options

    /// The unconfigured format: negotiable media types, no schema (every decode and encode throws ``missingSchema``).
    public init() {
        schema = nil
        options = Options()
    }

    /// The format with the message types of `schema`.
    public init(schema: ProtobufSchema, options: Options = Options()) {
        self.schema = schema
        self.options = options
    }

    /// The format with the message types of serialized `FileDescriptorSet`s.
    ///
    /// - Throws: `FormatError/Code/malformed` when a set does not parse or is incomplete.
    public init(descriptorSets: [[UInt8]], options: Options = Options()) throws {
        self.init(schema: try ProtobufSchema(descriptorSets: descriptorSets), options: options)
    }

    /// `"protobuf"`.
    public var name: String { Self.formatName }

    /// `application/protobuf`, `application/x-protobuf`, `application/vnd.google.protobuf`.
    public var decodableMediaTypes: [MediaType] {
        [Self.applicationProtobuf, "application/x-protobuf", "application/vnd.google.protobuf"]
    }

    /// `application/protobuf`, `application/x-protobuf`, `application/vnd.google.protobuf`.
    public var encodableMediaTypes: [MediaType] { decodableMediaTypes }

    /// `application/protobuf`.
    public static let applicationProtobuf: MediaType = "application/protobuf"

    static let formatName = "protobuf"

    /// The key under which kept unknown fields appear: `.bytes` of their wire encoding, in order.
    public static let unknownFieldsKey = "@unknown"

    /// No message type in the media type and none configured.
    public static let missingMessageType = FormatError.Code("missingMessageType")
    /// The message type is not in the registered descriptor sets.
    public static let unknownMessageType = FormatError.Code("unknownMessageType")
    /// The format has no descriptor sets.
    public static let missingSchema = FormatError.Code("missingSchema")

    /// The full names of the registered message types, sorted.
    public var messageTypes: [String] { schema?.messageTypes ?? [] }

    /// The message type a body of `mediaType` holds: its `messageType` or `proto` parameter, else the configured one.
    func table(for mediaType: MediaType) throws(FormatError) -> (ProtobufSchema, MessageTable) {
        guard let schema else {
            throw FormatError(Self.missingSchema, format: name,
                              "no descriptor sets are registered: configure ProtobufFormat(descriptorSets:)")
        }
        guard let requested = mediaType.parameter("messageType") ?? mediaType.parameter("proto")
                ?? options.messageType else {
            throw FormatError(Self.missingMessageType, format: name,
                              "\(mediaType) names no message type (a messageType or proto parameter) "
                                + "and none is configured")
        }
        let fullName = ProtobufSchema.trimmed(requested)
        guard let table = schema.messages[fullName] else {
            throw FormatError(Self.unknownMessageType, format: name,
                              "no registered descriptor set defines message type \(fullName)")
        }
        return (schema, table)
    }

    /// Decodes one message.
    ///
    /// - Throws: `FormatError` with ``missingSchema``, ``missingMessageType``, ``unknownMessageType``,
    ///   `FormatError/Code/truncated` (a varint, fixed value or declared length past the end),
    ///   `FormatError/Code/malformed` (a wrong wire type, a bad tag, an unmatched group),
    ///   `FormatError/Code/invalidText`, `FormatError/Code/unsupportedValue` (a timestamp or duration
    ///   out of range) or `FormatError/Code/limitExceeded`, each with the byte offset.
    public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        try context.limits.checkBodySize(bytes.count, format: name)
        let (schema, table) = try table(for: context.mediaType)
        var reader = ProtobufReader(schema: schema, options: options, limits: context.limits)
        return try reader.read(reader.plan(named: table.fullName), bytes.bindMemory(to: UInt8.self), base: 0,
                               depth: 0)
    }

    /// Encodes a value (in ProtoJSON form: either field name, numbers as numbers or strings) as a message.
    ///
    /// - Throws: `FormatError` with ``missingSchema``, ``missingMessageType``, ``unknownMessageType``, or
    ///   `FormatError/Code/unsupportedValue` naming the path of a member the message type has no field for
    ///   or a value the field cannot hold.
    public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        let (schema, table) = try table(for: context.mediaType)
        var writer = ProtobufWriter(schema: schema, maxDepth: options.maxDepth)
        return try writer.message(table, value, path: "", depth: 0)
    }
}
