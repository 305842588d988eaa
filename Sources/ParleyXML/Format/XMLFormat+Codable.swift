public import Parley

extension XMLFormat {
    /// Decodes a `Decodable` type from a document, so that what ``encode(_:context:)`` wrote for a
    /// value reads back as that value.
    ///
    /// The document's value is `{ rootName: content }`. A root named `root` (what the encoder
    /// writes around a value that is not a single-member object) is read as its content, and
    /// `<root><item>…</item></root>` (an array) as the list of items. Any other root is read
    /// first as the whole `{ rootName: content }`, then, if `type` does not fit it, as the
    /// content alone, so a `Book` reads from `<book><id>7</id>…</book>` as well. Text converts to
    /// numbers, Booleans and dates as `Parley/ValueDecoder` describes, and an element that
    /// occurs once reads as a one-element array where `type` asks for an array (see
    /// `Parley/ValueDecoder/decodesSingleValuesAsArrays`).
    ///
    /// - Throws: `FormatError` for a document that is not well-formed; the `DecodingError` of the
    ///   root's content when `type` fits no reading.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer, context: DecodingContext,
                                     decoder: ValueDecoder) throws -> T {
        var decoder = decoder
        decoder.decodesSingleValuesAsArrays = true
        decoder.convertsTextScalars = true
        let document = try decode(bytes, context: context)
        guard let members = document.objectValue?.members, members.count == 1 else {
            return try decoder.decode(T.self, from: document)
        }
        let root = members[0]
        var readings: [Value] = []
        if root.key == "root" {
            if let items = root.value.objectValue?.members, items.count == 1, items[0].key == "item" {
                readings.append(items[0].value)
            }
            readings.append(root.value)
        } else {
            readings = [document, root.value]
        }
        var lastError: (any Error)?
        for reading in readings {
            do { return try decoder.decode(T.self, from: reading) } catch { lastError = error }
        }
        throw lastError!
    }
}
