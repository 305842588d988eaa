import Parley

extension TreeBuilder {
    /// An anchored node, ready to be copied by aliases.
    struct Anchored {
        var value: Value
        var nodeCount: Int
        var units: Int
        var height: Int
        /// The scalar's text, used when an alias to a scalar is a mapping key.
        var keyText: String?
    }
}
