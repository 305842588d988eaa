import ParleyHTTP

extension Finding {
    /// ` (at /0/title, schema #/components/…/type)` for a schema violation, else empty: what text
    /// reports append to the message.
    var pathsText: String {
        var parts: [String] = []
        if let instancePath { parts.append("at " + (instancePath.isEmpty ? "/" : instancePath)) }
        if let schemaPath { parts.append("schema " + schemaPath) }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }
}
