extension FormatError.Location {
    /// The location of the byte at `offset` in `text`: its line, counted at line feeds, and its
    /// column in bytes, both 1-based (an offset past the end continues the last line).
    public init(byteOffset offset: Int, in text: UnsafeBufferPointer<UInt8>) {
        var line = 1
        var lineStart = 0
        var i = 0
        let end = min(offset, text.count)
        while i < end {
            if text[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        self.init(byteOffset: offset, line: line, column: offset - lineStart + 1)
    }
}
