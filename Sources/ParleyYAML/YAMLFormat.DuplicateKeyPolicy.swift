extension YAMLFormat {
    /// What the decoder does when a mapping repeats a key.
    ///
    /// Scalar keys compare by their content. Collection keys are not compared (their flow
    /// rendering, which becomes the member's key, only approximates node equality, and an alias
    /// may name the same node twice); an object holding two equal keys decodes but does not
    /// encode back to YAML. Keys brought in by a merge key `<<` never count as duplicates;
    /// explicit keys override them.
    public enum DuplicateKeyPolicy: Sendable, Hashable {
        /// Fail with `FormatError.Code.malformed` at the repeated key: YAML requires
        /// keys to be unique, and two readers may disagree on which one wins.
        case reject
        /// Keep every member in order; `Value.Object` lookups return the last one.
        case keepAll
    }
}
