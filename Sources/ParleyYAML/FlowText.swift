import Parley

/// The flow-style text of a value, used as the key of a mapping whose key is a collection
/// (`[a, b]: x` gives the key `"[a, b]"`).
enum FlowText {
    static func render(_ value: Value) -> String {
        var writer = YAMLWriter(format: "yaml")
        do {
            try writer.appendFlow(value)
        } catch {
            return "\(value)"
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
