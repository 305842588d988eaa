extension YAMLFormat {
    /// What the decoder does when a mapping repeats a key.
    ///
    /// Keys compare by their text: a scalar key by its content, a collection key by its flow
    /// rendering (see the module overview). Keys brought in by a merge key `<<` never count
    /// as duplicates; explicit keys override them.
    public enum DuplicateKeyPolicy: Sendable, Hashable {
        /// Fail with `FormatError.Code.malformed` at the repeated key: YAML requires
        /// keys to be unique, and two readers may disagree on which one wins.
        case reject
        /// Keep every member in order; `Value.Object` lookups return the last one.
        case keepAll
    }
}
