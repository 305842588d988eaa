extension YAMLFormat {
    /// Which documents of a multi-document stream (`---` separated) the decoder returns.
    ///
    /// Either way the whole stream is parsed, so a syntax error in a later document fails the decode.
    public enum DocumentSelection: Sendable, Hashable {
        /// The first document's value; `null` for a stream without documents.
        case first
        /// A stream of two or more documents decodes to an `Value.array(_:)` of their
        /// values; a stream of one document decodes to that document itself, and an empty
        /// stream to `null`.
        case all
    }
}
