import Parley

extension Registry {
    /// Decodes `T` from a body with the format `contentType` selects, under the registry's limits.
    ///
    /// XML reads a document as `{ rootName: content }` and writes a value of several members
    /// inside a document element (`ParleyXML`'s value mapping), so for XML `T` is decoded from
    /// the document element's content: what ``ParleyContentCoder`` writes, it reads back.
    ///
    /// - Throws: ``Parley/ParleyError`` as ``Parley/Registry/decode(_:from:contentType:decoder:)`` does.
    func decodeContent<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer, contentType: MediaType,
                                     decoder: ValueDecoder) throws -> T {
        guard let match = self.decoder(for: contentType), match.format.name == "xml" else {
            return try decode(T.self, from: bytes, contentType: contentType, decoder: decoder)
        }
        let document = try match.decode(bytes, contentType: contentType)
        guard case .object(let members) = document, members.count == 1 else {
            throw ParleyError(.decodingFailed, "cannot decode \(T.self): an XML document has one element",
                              receivedContentType: contentType.description)
        }
        do {
            return try decoder.decode(T.self, from: members[0].value)
        } catch {
            throw ParleyError(.decodingFailed, "cannot decode \(T.self): \(error)",
                              receivedContentType: contentType.description, underlying: [error])
        }
    }
}
