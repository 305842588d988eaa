import Parley
import ParleySchema

// JSON Schema validation (issue #34): deep nesting against a recursive schema, a huge `enum`,
// `uniqueItems` over many items, and wide objects against wide `properties`/`required`. The
// ReDoS pattern shape belongs to the pattern engine's workloads.

let schemaWorkloads: [Workload] = [
    Workload("schema.deep-nesting", unit: "levels", count: 40) { n in
        var limits = JSONSchema.Limits()
        limits.maxDepth = 100_000
        let schema = try! JSONSchema(
            [
                "$defs": ["n": ["type": "array", "items": ["$ref": "#/$defs/n"]]],
                "$ref": "#/$defs/n",
            ], options: .init(limits: limits))
        var instance: Value = []
        for _ in 0..<n { instance = [instance] }
        let deep = instance
        return { keep(try schema.validate(deep)) }
    },
    Workload("schema.huge-enum", unit: "values", count: 25_000) { n in
        let schema = try! JSONSchema([
            "type": "array", "items": ["enum": .array((0..<n).map { .string("value\($0)") })],
        ])
        let instance: Value = .array((0..<n).map { .string("value\($0 * 7 % n)") })
        return { keep(try schema.validate(instance)) }
    },
    Workload("schema.unique-items", unit: "items", count: 25_000) { n in
        let schema = try! JSONSchema(["uniqueItems": true])
        let instance: Value = .array((0..<n).map { .integer(Int64($0)) })
        return { keep(try schema.validate(instance)) }
    },
    Workload("schema.wide-object", unit: "properties", count: 2_000) { n in
        let names = (0..<n).map { "p\($0)" }
        let schema = try! JSONSchema([
            "type": "object",
            "properties": .object(Value.Object(names.map { .init(key: $0, value: ["type": "integer"]) })),
            "required": .array(names.map { .string($0) }),
        ])
        let instance: Value = .object(
            Value.Object(names.enumerated().map { .init(key: $1, value: .integer(Int64($0))) }))
        return { keep(try schema.validate(instance)) }
    },
]
