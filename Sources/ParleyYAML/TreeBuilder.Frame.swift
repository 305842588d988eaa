import Parley

extension TreeBuilder {
    /// A collection being built.
    struct Frame {
        var isMapping: Bool
        var anchor: String?
        /// A tag to wrap the finished value in (`.tagged`), for unknown tags under `.keep`.
        var wrappingTag: String?
        var elements: [Value] = []
        var members: [Value.Object.Member] = []
        /// The key read and waiting for its value (mappings).
        var pendingKey: String?
        var pendingKeyIsMerge = false
        /// Keys seen so far, built once a mapping grows past a few members.
        var keySet: Set<String>?
        /// Merge sources (`<<`) and the member index where each appeared.
        var merges: [(position: Int, sources: [Value.Object])] = []
        var nodeCount = 1
        var units = 1
        /// 1 + the height of the highest child collection.
        var height = 1

        init(isMapping: Bool, anchor: String?, wrappingTag: String?) {
            self.isMapping = isMapping
            self.anchor = anchor
            self.wrappingTag = wrappingTag
        }

        var isExpectingKey: Bool { isMapping && pendingKey == nil }
    }
}
