/// A message type compiled once for reading: its fields in number order with everything the reader needs
/// resolved (nested types as plan indices, enum names as tables, ProtoJSON keys), so reading a field
/// copies no strings and looks nothing up by name.
final class ReadPlan: Sendable {
    let fullName: String
    let wellKnown: WellKnownType?
    let fields: [ReadField]
    /// The ProtoJSON name of each field, in the order of `fields`.
    let keys: [String]
    /// The `.proto` name of each field, in the order of `fields`, for error messages.
    let names: [String]
    /// The field numbers, in the order of `fields` (ascending).
    let numbers: [UInt32]
    /// The index of each field number below its count, `-1` where no field has it; higher numbers are
    /// found by binary search of `numbers`.
    let indexByNumber: [Int32]

    /// Numbers up to this get a direct entry in `indexByNumber`.
    static let directNumbers: UInt32 = 256

    init(_ table: MessageTable, planIndex: [String: Int], enumIndex: [String: Int]) {
        fullName = table.fullName
        wellKnown = table.wellKnown
        fields = table.fields.map { ReadField($0, planIndex: planIndex, enumIndex: enumIndex) }
        keys = table.fields.map(\.jsonName)
        names = table.fields.map(\.name)
        numbers = table.numbers
        let direct = min(Int(Self.directNumbers), (table.numbers.last.map(Int.init) ?? 0) + 1)
        var indexByNumber = [Int32](repeating: -1, count: direct)
        for (index, number) in table.numbers.enumerated() where number < direct {
            indexByNumber[Int(number)] = Int32(index)
        }
        self.indexByNumber = indexByNumber
    }

    /// The index of field `number`, or `nil`.
    func index(ofField number: UInt32) -> Int? {
        if number < UInt32(indexByNumber.count) {
            let index = indexByNumber[Int(number)]
            return index < 0 ? nil : Int(index)
        }
        var low = 0
        var high = numbers.count
        while low < high {
            let middle = (low + high) / 2
            if numbers[middle] == number { return middle }
            if numbers[middle] < number { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}

/// One field of a read plan: plain values only, so taking one from the plan retains nothing.
struct ReadField: Sendable {
    enum Kind: Sendable, Equatable {
        case double, float, int64, uint64, int32, fixed64, fixed32, bool, string, bytes, uint32
        case sfixed32, sfixed64, sint32, sint64
        case message, group, enumeration
        /// `google.protobuf.NullValue`, which ProtoJSON writes as `null`.
        case nullValue
    }

    let number: UInt32
    let kind: Kind
    /// The wire type a single (unpacked) value arrives with.
    let wireType: WireType
    let isRepeated: Bool
    let isMap: Bool
    let hasPresence: Bool
    /// Whether repeated values of this kind may arrive packed.
    let isPackable: Bool
    /// The real `oneof` the field belongs to, or `-1`.
    let oneof: Int
    /// The plan index of a message, group or map entry type, or the enum index of an enumeration; `-1` otherwise.
    let target: Int

    init(_ field: FieldInfo, planIndex: [String: Int], enumIndex: [String: Int]) {
        number = field.number
        wireType = field.kind.wireType
        isRepeated = field.isRepeated
        isMap = field.isMap
        hasPresence = field.hasPresence
        isPackable = field.kind.isPackable
        oneof = field.oneofIndex ?? -1
        switch field.kind {
        case .double: (kind, target) = (.double, -1)
        case .float: (kind, target) = (.float, -1)
        case .int64: (kind, target) = (.int64, -1)
        case .uint64: (kind, target) = (.uint64, -1)
        case .int32: (kind, target) = (.int32, -1)
        case .fixed64: (kind, target) = (.fixed64, -1)
        case .fixed32: (kind, target) = (.fixed32, -1)
        case .bool: (kind, target) = (.bool, -1)
        case .string: (kind, target) = (.string, -1)
        case .bytes: (kind, target) = (.bytes, -1)
        case .uint32: (kind, target) = (.uint32, -1)
        case .sfixed32: (kind, target) = (.sfixed32, -1)
        case .sfixed64: (kind, target) = (.sfixed64, -1)
        case .sint32: (kind, target) = (.sint32, -1)
        case .sint64: (kind, target) = (.sint64, -1)
        case .message(let name): (kind, target) = (.message, planIndex[name] ?? -1)
        case .group(let name): (kind, target) = (.group, planIndex[name] ?? -1)
        case .enumeration(let name) where name == WellKnownType.nullValue: (kind, target) = (.nullValue, -1)
        case .enumeration(let name): (kind, target) = (.enumeration, enumIndex[name] ?? -1)
        }
    }
}

/// An enum's value names by number, as a table indexed from the lowest number when the numbers are close
/// together, else as a dictionary.
struct EnumNames: Sendable {
    let lowest: Int32
    let dense: [String?]
    let sparse: [Int32: String]

    /// The widest span of numbers kept as a table.
    static let maxDenseSpan = 1024

    init(_ table: EnumTable) {
        let numbers = table.nameByNumber.keys
        let lowest = numbers.min() ?? 0
        let span = Int(numbers.max() ?? 0) - Int(lowest) + 1
        if span <= Self.maxDenseSpan {
            var dense = [String?](repeating: nil, count: numbers.isEmpty ? 0 : span)
            for (number, name) in table.nameByNumber { dense[Int(number) - Int(lowest)] = name }
            self.dense = dense
            sparse = [:]
        } else {
            dense = []
            sparse = table.nameByNumber
        }
        self.lowest = lowest
    }

    /// The name of value `number`, or `nil` for a number the enum does not declare.
    func name(of number: Int32) -> String? {
        guard !dense.isEmpty else { return sparse[number] }
        let offset = Int(number) - Int(lowest)
        return offset >= 0 && offset < dense.count ? dense[offset] : nil
    }
}
