extension YAMLFormat {
    /// What the decoder does with a tag it does not construct.
    ///
    /// Parley constructs the YAML 1.2 tags `!!str`, `!!int`, `!!float`, `!!bool`, `!!null`,
    /// `!!map`, `!!seq`, plus `!!binary`, `!!timestamp` and `!!merge`, and never an application
    /// type: a `!!python/object:…` node is data, not an object.
    public enum UnknownTagPolicy: Sendable, Hashable {
        /// Keep the node as `Value.tagged(_:_:)` with the full tag
        /// (`tag:yaml.org,2002:python/object:vcr.request.Request`, `!point`) and the node's
        /// value: a mapping, a sequence, or the scalar's text as a string.
        case keep
        /// Fail with `FormatError.Code.forbidden`.
        case reject
    }
}
