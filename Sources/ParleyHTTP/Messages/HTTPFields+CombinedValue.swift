public import HTTPTypes

extension HTTPFields {
    /// The value of the fields named `name` as the `subscript(_:)` getter reads it (the values of
    /// repeated fields joined with `, `, or `; ` for `Cookie`), in one pass and without copying a
    /// single field's value: the getter walks the fields twice and builds a new string even for
    /// one field, which every response pays for on a per-request path.
    public func combinedValue(of name: HTTPField.Name) -> String? {
        var combined: String?
        for field in self where field.name.matches(name) {
            guard let earlier = combined else {
                combined = field.value
                continue
            }
            combined = earlier + (name == .cookie ? "; " : ", ") + field.value
        }
        return combined
    }
}
