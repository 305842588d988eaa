package import Parley
import ParleyHTTP
import ParleyFixtures

/// The media type `parley decode` uses when no `--content-type` is given: the file extension's
/// type (`FileExtensionMediaTypes`) when a linked format decodes it, else what the bytes look
/// like (`Registry.sniff(_:)`), else an error asking for `--content-type`.
package enum BodyTypeGuess {
    /// A chosen type and why, as shown on standard error.
    package struct Choice: Equatable, Sendable {
        package var mediaType: MediaType
        package var reason: String
    }

    /// Chooses the type of `body`, read from `path` (`nil` for standard input).
    ///
    /// - Throws: ``InputError`` (exit 2) when neither the extension nor the content tells.
    package static func choose(path: String?, body: [UInt8], registry: Registry) throws -> Choice {
        var extensionNote: String?
        if let path, let ext = FileExtensionMediaTypes.fileExtension(of: path) {
            if let type = FileExtensionMediaTypes.standard[ext] {
                if registry.decoder(for: type) != nil {
                    return Choice(mediaType: type, reason: "from the extension .\(ext)")
                }
                extensionNote = "the extension .\(ext) means \(type), which no linked format decodes"
            } else {
                extensionNote = "the extension .\(TerminalText.escaped(ext)) is not one parley knows"
            }
        }
        if let sniffed = registry.sniff(body), registry.decoder(for: sniffed.mediaType) != nil {
            let why = "from the content, recognised by the \(sniffed.format.name) format"
            return Choice(mediaType: sniffed.mediaType, reason: extensionNote.map { "\(why); \($0)" } ?? why)
        }
        let source = path.map { "'\(TerminalText.escaped($0))'" } ?? "standard input"
        let known = extensionNote ?? (path == nil ? "standard input has no file extension"
                                      : "the file name has no extension")
        throw InputError(message: "cannot tell the type of \(source): \(known), and no linked format recognises "
            + "its content; pass --content-type TYPE")
    }
}
