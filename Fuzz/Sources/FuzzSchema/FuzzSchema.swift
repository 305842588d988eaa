import Parley
import ParleyJSON
import ParleySchema

let json = JSONFormat()
let decodingLimits = DecodingLimits(maxBodyBytes: 1 << 16, maxDepth: 64, maxNodes: 10_000)
let schemaLimits = JSONSchema.Limits(maxDepth: 64, maxErrors: 20, maxWork: 200_000, maxSchemaNodes: 2_000)

/// Splits the input at its first NUL byte: a schema (JSON) before it, an instance (JSON) after.
/// Every dialect compiles the schema or throws a `SchemaError`; a compiled schema validates the
/// instance or throws a `SchemaError` (a limit), and flag mode agrees with basic mode on validity.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    guard let schemaValue = try? json.decode(bytes[..<split], limits: decodingLimits),
        let instance = try? json.decode(
            split < bytes.count ? Array(bytes[(split + 1)...]) : [UInt8]("null".utf8),
            limits: decodingLimits)
    else { return 0 }
    for dialect in JSONSchema.Dialect.allCases {
        for formatAssertion in [false, true] {
            let schema: JSONSchema
            do {
                schema = try JSONSchema(
                    schemaValue,
                    options: .init(
                        dialect: dialect, formatAssertion: formatAssertion,
                        limits: schemaLimits))
            } catch {
                continue  // a typed SchemaError: the schema does not compile
            }
            do {
                let result = try schema.validate(instance, options: .init(coercesStrings: formatAssertion))
                let flag = try schema.isValid(instance, options: .init(coercesStrings: formatAssertion))
                if flag != result.isValid { fatalError("flag \(flag) and basic \(result.isValid) disagree") }
                if result.isValid != result.errors.isEmpty {
                    fatalError("valid \(result.isValid) with \(result.errors.count) errors")
                }
            } catch {
                continue  // a typed limit error
            }
        }
    }
    return 0
}
