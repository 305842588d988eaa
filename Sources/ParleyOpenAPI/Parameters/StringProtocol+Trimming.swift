extension StringProtocol {
    /// The text without the given characters at either end.
    func trimmingCharacters(in set: String) -> Substring {
        let text = Substring(self)
        // Text that neither starts nor ends with a byte of an ASCII set has nothing to trim:
        // a Character of the set is made of the set's bytes (the common case, read without
        // Characters, the set's bytes in one pass: kept, see Benchmarks/Gate/kept-shortcuts.md).
        if let head = text.utf8.first, let tail = text.utf8.last,
           !set.utf8.contains(where: { $0 >= 0x80 || $0 == head || $0 == tail }) {
            return text
        }
        guard let first = text.firstIndex(where: { !set.contains($0) }) else { return text[text.endIndex...] }
        let last = text.lastIndex(where: { !set.contains($0) })!
        return text[first...last]
    }
}
