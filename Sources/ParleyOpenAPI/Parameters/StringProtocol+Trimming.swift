extension StringProtocol {
    /// The text without the given characters at either end.
    func trimmingCharacters(in set: String) -> Substring {
        let text = Substring(self)
        guard let first = text.firstIndex(where: { !set.contains($0) }) else { return text[text.endIndex...] }
        let last = text.lastIndex(where: { !set.contains($0) })!
        return text[first...last]
    }
}
