public import Parley
import ParleySchema

/// Coerces the rows `CSVFormat` decodes a body into (an array of records whose fields are all
/// text) by the types of the body schema's `items`, so the schema validates a CSV body as it
/// would the same rows in JSON.
///
/// - A record with a header row is an object: each field is coerced by its property's schema
///   (`additionalProperties` for an undeclared column; text when neither says).
/// - A record without one is an array of fields: with object items it becomes an object keyed
///   by the declared properties in order when it has exactly that many fields (else it stays an
///   array for validation to report); with array items its fields are coerced by their `items`.
/// - An empty field of a column whose type is not a string is null when the type allows null,
///   and otherwise left out, so `required` reports a missing value and an optional one may be empty.
public struct CSVBodyShape: Sendable {
    /// The body's Schema Object (an array of rows), as a value.
    public let schema: Value?
    let resolver: SchemaReferenceResolver

    /// Creates the shape of a CSV body with `schema` (`$ref`s followed with `resolver`).
    public init(schema: Value?, resolver: SchemaReferenceResolver = .none) {
        self.schema = schema
        self.resolver = resolver
    }

    static let subject = "CSV body"

    /// The rows coerced by the schema's item types.
    ///
    /// - Parameter rows: What `CSVFormat` decoded: an array of objects or of arrays of strings.
    /// - Throws: ``DeserializationError/Code/unresolvedReference``.
    public func value(from rows: Value) throws(DeserializationError) -> Value {
        guard case .array(let records) = rows,
              let items = try SchemaNode.resolve(schema, resolver: resolver, subject: Self.subject)?
                  .items(subject: Self.subject) else { return rows }
        var result: [Value] = []
        result.reserveCapacity(records.count)
        for record in records { result.append(try row(record, items: items)) }
        return .array(result)
    }

    /// One record shaped by the items schema.
    private func row(_ record: Value, items: SchemaNode) throws(DeserializationError) -> Value {
        switch record {
        case .object(let fields):
            var members: [Value.Object.Member] = []
            for field in fields {
                if let value = try cell(field.value, node: items.property(field.key, subject: Self.subject)) {
                    members.append(.init(key: field.key, value: value))
                }
            }
            return .object(Value.Object(members))
        case .array(let fields):
            if try items.kind(subject: Self.subject) == .object {
                let names = try items.propertyNames(subject: Self.subject)
                guard names.count == fields.count else { return record }
                var members: [Value.Object.Member] = []
                for (name, field) in zip(names, fields) {
                    if let value = try cell(field, node: items.property(name, subject: Self.subject)) {
                        members.append(.init(key: name, value: value))
                    }
                }
                return .object(Value.Object(members))
            }
            let fieldNode = try items.items(subject: Self.subject)
            var values: [Value] = []
            for field in fields { values.append(try cell(field, node: fieldNode) ?? field) }
            return .array(values)
        default:
            return record
        }
    }

    /// A field coerced by its column's schema; `nil` for an empty field left out.
    private func cell(_ field: Value, node: SchemaNode?) throws(DeserializationError) -> Value? {
        guard case .string(let text) = field, let node else { return field }
        let types = try node.types(subject: Self.subject)
        if text.isEmpty, !types.isEmpty, !types.contains(.string) {
            return types.contains(.null) ? .null : nil
        }
        return TextCoercion.coerce(text, to: types)
    }
}
