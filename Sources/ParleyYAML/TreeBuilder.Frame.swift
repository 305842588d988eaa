import Parley

extension TreeBuilder {
    /// A collection being built. Its elements or members sit in the builder's scratch arrays
    /// from ``start`` on until it closes.
    ///
    /// What most collections lack (an anchor, a tag, merges, a key set) lives in an ``Extras``
    /// the builder keeps apart (``TreeBuilder/openExtras``), so frames hold no references and
    /// copy as plain bytes.
    struct Frame {
        var isMapping: Bool
        /// Whether a mapping has read a key and waits for its value.
        var hasPendingKey = false
        /// Whether the pending key is a merge key (`<<`), whose value is merged, not a member.
        var pendingKeyIsMerge = false
        /// Where this collection's first element or member is in the builder's scratch.
        let start: Int
        /// The builder's produced nodes and units when the collection opened (itself excluded):
        /// the collection's own counts are the growth since.
        let nodeMark: Int
        let unitMark: Int
        /// 1 + the height of the highest child collection.
        var height = 1
        /// Whether the collection has an ``Extras`` (the last of ``TreeBuilder/openExtras`` while
        /// it is the innermost open collection).
        var hasExtras: Bool

        init(isMapping: Bool, start: Int, nodeMark: Int, unitMark: Int, hasExtras: Bool) {
            self.isMapping = isMapping
            self.start = start
            self.nodeMark = nodeMark
            self.unitMark = unitMark
            self.hasExtras = hasExtras
        }

        /// The frame under every open collection: what is delivered to it is a document.
        static var documentLevel: Frame {
            Frame(isMapping: false, start: 0, nodeMark: 0, unitMark: 0, hasExtras: false)
        }
    }

    /// The parts of a ``Frame`` few collections have, created when the first one appears.
    final class Extras {
        var anchor: String?
        /// A tag to wrap the finished value in (`.tagged`), for unknown tags under `.keep`.
        var wrappingTag: String?
        /// Keys seen so far, built once a mapping grows past a few members.
        var keySet: Set<String>?
        /// Merge sources (`<<`) and the member index (from the frame's start) where each appeared.
        var merges: [(position: Int, sources: [Value.Object])] = []

        init(anchor: String?, wrappingTag: String?) {
            self.anchor = anchor
            self.wrappingTag = wrappingTag
        }
    }
}
