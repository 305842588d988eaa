/// Text edits of `Package.swift` at marker comments (SwiftPM has no API to edit a manifest).
enum ManifestPatch {
    /// Inserts `lines` above the line holding `marker`, with the marker line's indentation.
    static func insertLines(_ lines: [String], before marker: String, in manifest: inout String) {
        guard let markerRange = manifest.range(of: marker) else { return }
        let lineStart = manifest[..<markerRange.lowerBound].lastIndex(of: "\n").map { manifest.index(after: $0) }
            ?? manifest.startIndex
        let indentation = manifest[lineStart..<markerRange.lowerBound].prefix { $0 == " " || $0 == "\t" }
        let text = lines.map { String(indentation) + $0 + "\n" }.joined()
        manifest.insert(contentsOf: text, at: lineStart)
    }

    /// Inserts `element` into the array literal just before `marker`, adding the comma the
    /// elements before it need: `["A" /* m */]` becomes `["A", "B" /* m */]`, `[/* m */]`
    /// becomes `["B", /* m */]`.
    static func insertElement(_ element: String, before marker: String, in manifest: inout String) {
        guard let markerRange = manifest.range(of: marker) else { return }
        let before = manifest[..<markerRange.lowerBound]
        let previous = before.last { $0 != " " && $0 != "\n" && $0 != "\t" }
        if previous == "[" || previous == "," {
            manifest.insert(contentsOf: element + ", ", at: markerRange.lowerBound)
        } else {
            let end = before.lastIndex { $0 != " " && $0 != "\n" && $0 != "\t" }.map { manifest.index(after: $0) }
                ?? markerRange.lowerBound
            manifest.insert(contentsOf: ", " + element, at: end)
        }
    }
}
