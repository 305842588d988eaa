import Parley
import SwiftProtobuf

/// The message and enum types of one or more descriptor sets, each message precompiled into a
/// field table the writer looks fields up in and a read plan the reader follows.
public struct ProtobufSchema: Sendable {
    /// The message tables by full name (`pkg.Outer.Inner`, no leading dot).
    let messages: [String: MessageTable]
    /// The enum tables by full name.
    let enums: [String: EnumTable]
    /// The message types compiled for reading, and their indices by full name.
    let plans: [ReadPlan]
    let planIndex: [String: Int]
    /// The enums' names by number, as the read plans' fields index them.
    let enumNames: [EnumNames]

    /// The full names of the message types, sorted (map entries left out).
    public var messageTypes: [String] {
        messages.values.filter { !$0.isMapEntry }.map(\.fullName).sorted()
    }

    /// Whether the schema holds message type `fullName`.
    public func contains(messageType fullName: String) -> Bool {
        messages[Self.trimmed(fullName)] != nil
    }

    /// Reads serialized `FileDescriptorSet`s (as `protoc --descriptor_set_out --include_imports`
    /// writes them). A type defined twice keeps its first definition.
    ///
    /// - Throws: `FormatError/Code/malformed` when a set does not parse, or a field names a type
    ///   no set defines.
    public init(descriptorSets: [[UInt8]]) throws {
        var messages: [String: MessageTable] = [:]
        var enums: [String: EnumTable] = [:]
        for bytes in descriptorSets {
            let set: Google_Protobuf_FileDescriptorSet
            do {
                set = try Google_Protobuf_FileDescriptorSet(serializedBytes: bytes)
            } catch {
                throw FormatError(.malformed, format: ProtobufFormat.formatName,
                                  "a descriptor set does not parse: \(error)")
            }
            for file in set.file {
                let prefix = file.package.isEmpty ? "" : file.package + "."
                let syntax = Syntax(file.syntax)
                for message in file.messageType {
                    Self.collect(message, prefix: prefix, syntax: syntax, into: &messages, enums: &enums)
                }
                for type in file.enumType {
                    let table = EnumTable(type, fullName: prefix + type.name)
                    if enums[table.fullName] == nil { enums[table.fullName] = table }
                }
            }
        }
        for table in messages.values {
            for field in table.fields {
                switch field.kind {
                case .message(let name) where messages[name] == nil, .group(let name) where messages[name] == nil,
                     .enumeration(let name) where enums[name] == nil:
                    throw FormatError(.malformed, format: ProtobufFormat.formatName,
                                      "\(table.fullName).\(field.name) names \(name), which no descriptor set defines")
                default: break
                }
            }
        }
        for (name, table) in messages {
            var marked = table
            for index in marked.fields.indices where marked.fields[index].isRepeated {
                if case .message(let entry) = marked.fields[index].kind, messages[entry]?.isMapEntry == true {
                    marked.fields[index].isMap = true
                }
            }
            messages[name] = marked
        }
        self.messages = messages
        self.enums = enums
        let sortedMessages = messages.sorted { $0.key < $1.key }
        let sortedEnums = enums.sorted { $0.key < $1.key }
        let planIndex = Dictionary(uniqueKeysWithValues: sortedMessages.enumerated().map { ($1.key, $0) })
        let enumIndex = Dictionary(uniqueKeysWithValues: sortedEnums.enumerated().map { ($1.key, $0) })
        plans = sortedMessages.map { ReadPlan($0.value, planIndex: planIndex, enumIndex: enumIndex) }
        self.planIndex = planIndex
        enumNames = sortedEnums.map { EnumNames($0.value) }
    }

    /// The read plan of message type `fullName` (no leading dot), or `nil`.
    func plan(_ fullName: String) -> ReadPlan? {
        planIndex[fullName].map { plans[$0] }
    }

    private static func collect(_ message: Google_Protobuf_DescriptorProto, prefix: String, syntax: Syntax,
                                into messages: inout [String: MessageTable], enums: inout [String: EnumTable]) {
        let fullName = prefix + message.name
        if messages[fullName] == nil {
            messages[fullName] = MessageTable(message, fullName: fullName, syntax: syntax)
        }
        for nested in message.nestedType {
            collect(nested, prefix: fullName + ".", syntax: syntax, into: &messages, enums: &enums)
        }
        for type in message.enumType {
            let table = EnumTable(type, fullName: fullName + "." + type.name)
            if enums[table.fullName] == nil { enums[table.fullName] = table }
        }
    }

    /// A type name without the leading dot descriptors write.
    static func trimmed(_ name: String) -> String {
        name.hasPrefix(".") ? String(name.dropFirst()) : name
    }
}

/// The syntax a message's file declares; it decides field presence and packing defaults.
enum Syntax: Sendable {
    case proto2, proto3, editions

    init(_ text: String) {
        switch text {
        case "proto3": self = .proto3
        case "editions": self = .editions
        default: self = .proto2
        }
    }
}

/// A field's wire kind and, for messages and enums, the full name of its type.
enum FieldKind: Sendable, Equatable {
    case double, float, int64, uint64, int32, fixed64, fixed32, bool, string, bytes, uint32
    case sfixed32, sfixed64, sint32, sint64
    case message(String)
    /// A proto2 group: a message written between a start-group and an end-group tag.
    case group(String)
    case enumeration(String)

    /// The full name of the message type of a message or group field.
    var messageName: String? {
        switch self {
        case .message(let name), .group(let name): name
        default: nil
        }
    }

    /// The wire type a single (unpacked) value of this kind is written with.
    var wireType: WireType {
        switch self {
        case .double, .fixed64, .sfixed64: .fixed64
        case .float, .fixed32, .sfixed32: .fixed32
        case .string, .bytes, .message: .lengthDelimited
        case .group: .startGroup
        default: .varint
        }
    }

    /// Whether repeated values of this kind may be packed (every scalar but strings and bytes).
    var isPackable: Bool {
        switch self {
        case .string, .bytes, .message, .group: false
        default: true
        }
    }
}

/// One field of a message table.
struct FieldInfo: Sendable {
    let number: UInt32
    /// The name in the `.proto` file.
    let name: String
    /// The ProtoJSON name (lowerCamelCase unless the file sets `json_name`).
    let jsonName: String
    let kind: FieldKind
    let isRepeated: Bool
    /// Whether the writer packs repeated values (proto3 and editions by default, proto2 with `packed = true`).
    let isPacked: Bool
    /// Whether the field is a map: a repeated message whose type is a map entry.
    var isMap: Bool
    /// The index of the real (not synthetic) `oneof` the field belongs to.
    let oneofIndex: Int?
    /// Whether a default value is still written and shown (proto2 and proto3 `optional`, oneof members,
    /// messages).
    let hasPresence: Bool
}

/// A message precompiled for writing (and compiled further into a ``ReadPlan`` for reading): its fields by
/// number and by either name.
struct MessageTable: Sendable {
    let fullName: String
    var fields: [FieldInfo]
    /// The field numbers, in the fields' (ascending) order.
    let numbers: [UInt32]
    /// Field index by ProtoJSON name and by `.proto` name.
    let indexByName: [String: Int]
    let isMapEntry: Bool
    let oneofNames: [String]
    /// The well-known type this message is, which ProtoJSON gives a form of its own.
    let wellKnown: WellKnownType?

    init(_ message: Google_Protobuf_DescriptorProto, fullName: String, syntax: Syntax) {
        self.fullName = fullName
        wellKnown = WellKnownType(rawValue: fullName)
        isMapEntry = message.options.mapEntry
        oneofNames = message.oneofDecl.map(\.name)
        var fields: [FieldInfo] = []
        for field in message.field {
            let kind = Self.kind(of: field)
            let isRepeated = field.label == .repeated
            let isPacked = isRepeated && kind.isPackable
                && (field.options.hasPacked ? field.options.packed : syntax != .proto2)
            let isSynthetic = field.proto3Optional
            let oneofIndex = field.hasOneofIndex && !isSynthetic ? Int(field.oneofIndex) : nil
            let hasPresence: Bool
            if isRepeated {
                hasPresence = false
            } else if case .message = kind {
                hasPresence = true
            } else {
                hasPresence = syntax != .proto3 || field.proto3Optional || oneofIndex != nil
            }
            fields.append(FieldInfo(
                number: UInt32(bitPattern: field.number), name: field.name,
                jsonName: field.hasJsonName ? field.jsonName : Self.lowerCamelCase(field.name),
                kind: kind, isRepeated: isRepeated, isPacked: isPacked, isMap: false,
                oneofIndex: oneofIndex, hasPresence: hasPresence))
        }
        fields.sort { $0.number < $1.number }
        self.fields = fields
        var byName: [String: Int] = [:]
        for (index, field) in fields.enumerated() {
            byName[field.name] = index
            byName[field.jsonName] = index
        }
        numbers = fields.map(\.number)
        indexByName = byName
    }

    private static func kind(of field: Google_Protobuf_FieldDescriptorProto) -> FieldKind {
        switch field.type {
        case .double: .double
        case .float: .float
        case .int64: .int64
        case .uint64: .uint64
        case .int32: .int32
        case .fixed64: .fixed64
        case .fixed32: .fixed32
        case .bool: .bool
        case .string: .string
        case .group: .group(ProtobufSchema.trimmed(field.typeName))
        case .message: .message(ProtobufSchema.trimmed(field.typeName))
        case .bytes: .bytes
        case .uint32: .uint32
        case .enum: .enumeration(ProtobufSchema.trimmed(field.typeName))
        case .sfixed32: .sfixed32
        case .sfixed64: .sfixed64
        case .sint32: .sint32
        case .sint64: .sint64
        }
    }

    /// The index of field `number`, by binary search of the numbers.
    func index(ofField number: UInt32) -> Int? {
        var low = 0
        var high = numbers.count
        while low < high {
            let middle = (low + high) / 2
            if numbers[middle] == number { return middle }
            if numbers[middle] < number { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// protoc's default JSON name: underscores dropped, the letter after each upper-cased.
    static func lowerCamelCase(_ name: String) -> String {
        var result = ""
        var upperNext = false
        for character in name {
            if character == "_" {
                upperNext = true
            } else if upperNext {
                result += character.uppercased()
                upperNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// An enum's value names by number and numbers by name.
struct EnumTable: Sendable {
    let fullName: String
    let nameByNumber: [Int32: String]
    let numberByName: [String: Int32]

    init(_ type: Google_Protobuf_EnumDescriptorProto, fullName: String) {
        self.fullName = fullName
        var names: [Int32: String] = [:]
        var numbers: [String: Int32] = [:]
        for value in type.value {
            if names[value.number] == nil { names[value.number] = value.name }
            numbers[value.name] = value.number
        }
        nameByNumber = names
        numberByName = numbers
    }
}
