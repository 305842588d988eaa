extension String {
    /// Calls `body` with the string's UTF-8 bytes: those of a native or small string as they are
    /// (no copy of the string, no check that it is uniquely referenced, as `withUTF8` makes), those
    /// of others made contiguous first.
    func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        var text = self
        return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
}
