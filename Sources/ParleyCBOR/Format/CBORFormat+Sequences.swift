public import Parley

extension CBORFormat {
    /// Decodes a CBOR sequence (RFC 8742) item by item, handing each to `body` as soon as it is
    /// read, so a long sequence is never held as one array.
    ///
    /// ```swift
    /// try CBORFormat().forEachItem(inSequence: body) { event in
    ///     print(event["type"]?.stringValue ?? "?")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: The sequence: zero or more items, one after another.
    ///   - limits: The limits in force (default `Format/defaultLimits`): the body size for the
    ///     whole input, `DecodingLimits/maxNodes` for all items together, the depth for each.
    ///   - body: Called with each item, in order; an error it throws stops the reading and is
    ///     rethrown.
    /// - Throws: `FormatError` as ``decode(_:context:)`` throws it, for the first item that is not
    ///   well-formed (the items before it have been handed to `body`), or what `body` throws.
    public func forEachItem<Bytes: Sequence<UInt8>>(inSequence bytes: Bytes, limits: DecodingLimits? = nil,
                                                   _ body: (Value) throws -> Void) throws {
        let limits = limits ?? defaultLimits
        try withContiguousBytes(of: bytes) { raw in
            try limits.checkBodySize(raw.count, format: name)
            var reader = CBORReader(raw.bindMemory(to: UInt8.self), limits: limits, options: options)
            while let item = try reader.readNextItem() { try body(item) }
        }
    }
}
