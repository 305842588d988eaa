internal import CParleyXML
import Parley

/// The one owner of a libxml2 SAX2 parser context for one parse of one buffer.
///
/// Its initialiser is the single place where parser options and limits are set:
/// `XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING`, never `XML_PARSE_NOENT`,
/// `XML_PARSE_DTDLOAD` or `XML_PARSE_DTDATTR` (no external entity or DTD is ever loaded), and
/// `XML_PARSE_HUGE` only when the caller raised `DecodingLimits/maxDepth` above the standard
/// on purpose. Internal entities are expanded; libxml2's amplification checks and the handler's
/// own `DecodingLimits/maxExpansionRatio` check bound the expansion.
///
/// libxml2 reads the buffer through its read callback, about 4,000 bytes at a time, into an
/// input buffer it shrinks as it goes: a memory parser context would copy the whole document
/// first (a megabyte of memory and of copying per megabyte of XML, fresh pages the process then
/// touches). libxml2 does the same work here as under a memory parser context; a zero-copy
/// input stream cannot switch encodings, and a push parser costs more. libxml2 2.9 keeps line
/// and column numbers whatever the options (they are this type's error locations);
/// `ignorableWhitespace` is the `characters` callback, so libxml2 never looks for ignorable
/// blanks.
final class SAXParser {
    /// libxml2's fixed nesting limit without `XML_PARSE_HUGE`.
    static let libxml2MaxDepth = 256

    private let context: xmlParserCtxtPtr
    private let handler: SAXHandler
    private let inputBytes: Int
    /// Where libxml2's read callback takes the document from, 4,000 bytes at a time.
    private let input: UnsafeMutablePointer<InputCursor>
    let usesHugeOption: Bool

    /// Creates a parser over `bytes`, which must outlive it.
    ///
    /// The encoding follows RFC 7303 §3: a byte-order mark wins, then `charset` (when libxml2
    /// knows it), then the XML declaration, then UTF-8.
    ///
    /// - Throws: `FormatError` `.limitExceeded` (maxBodyBytes) or `.malformed` for an empty body.
    init(bytes: UnsafeRawBufferPointer, handler: SAXHandler, charset: String? = nil) throws(FormatError) {
        let limits = handler.limits
        try limits.checkBodySize(bytes.count, format: "xml")
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw FormatError(.malformed, format: "xml", "empty document: no root element",
                              location: .init(byteOffset: 0, line: 1, column: 1))
        }
        guard bytes.count <= Int(Int32.max) else {
            throw FormatError.limitExceeded(format: "xml", limit: "maxBodyBytes", maximum: Int(Int32.max),
                                            actual: bytes.count)
        }
        try MarkupScan.check(bytes, charset: charset)
        xmlInitParser()
        let input = UnsafeMutablePointer<InputCursor>.allocate(capacity: 1)
        input.initialize(to: InputCursor(next: base, remaining: bytes.count))
        guard let context = xmlCreateIOParserCtxt(nil, nil, readInput, nil, input, XML_CHAR_ENCODING_NONE) else {
            input.deallocate()
            throw FormatError(.malformed, format: "xml", "libxml2 could not create a parser context")
        }
        self.input = input
        self.context = context
        self.handler = handler
        self.inputBytes = bytes.count
        usesHugeOption = limits.maxDepth > DecodingLimits.standard.maxDepth
        var options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        if usesHugeOption { options |= Int32(XML_PARSE_HUGE.rawValue) }
        context.pointee.sax.pointee = SAXParser.makeHandler()
        let mark = Charset.byteOrderMark(in: bytes)
        var encoder: xmlCharEncodingHandlerPtr?
        if mark?.0 == .utf8 {
            // libxml2 2.9 lets a contradicting declaration win over a UTF-8 BOM; the BOM is right.
            options |= Int32(XML_PARSE_IGNORE_ENC.rawValue)
        } else if mark == nil, let charset, let found = xmlFindCharEncodingHandler(charset) {
            encoder = found
            options |= Int32(XML_PARSE_IGNORE_ENC.rawValue)
        }
        xmlCtxtUseOptions(context, options)
        if let encoder { xmlSwitchToEncoding(context, encoder) }
        context.pointee._private = UnsafeMutableRawPointer(handler.state)
        handler.context = context
        handler.begin(inputBytes: bytes.count)
    }

    deinit {
        if let document = context.pointee.myDoc {
            xmlFreeDoc(document)
            context.pointee.myDoc = nil
        }
        handler.context = nil
        handler.activeContext = nil
        xmlFreeParserCtxt(context)
        input.deallocate()
    }

    /// Parses the whole buffer, delivering events to the handler.
    ///
    /// - Throws: The handler's failure, or `FormatError` `.malformed`/`.truncated` with the
    ///   line and column libxml2 reports, or `.limitExceeded` for libxml2's own depth and
    ///   entity-amplification limits.
    func parse() throws {
        _ = xmlParseDocument(context)
        if let failure = handler.failure { throw failure }
        if context.pointee.wellFormed == 0 {
            throw handler.parseError
                ?? SAXParser.formatError(from: xmlCtxtGetLastError(context), usesHugeOption: usesHugeOption)
        }
        handler.finish()
        if let failure = handler.failure { throw failure }
    }

    /// Converts a libxml2 error into a `FormatError`.
    static func formatError(from error: UnsafePointer<xmlError>?, usesHugeOption: Bool,
                            byteOffset: Int? = nil) -> FormatError {
        guard let error = error?.pointee else {
            return FormatError(.malformed, format: "xml", "not well-formed")
        }
        let message = error.message.map { String(cString: $0) }?
            .trimmingWhitespace() ?? "not well-formed"
        let location = FormatError.Location(
            byteOffset: byteOffset,
            line: error.line > 0 ? Int(error.line) : nil,
            column: error.int2 > 0 ? Int(error.int2) : nil)
        let code = Int(error.code)
        switch code {
        case Int(XML_ERR_INTERNAL_ERROR.rawValue) where message.contains("depth"):
            return FormatError.limitExceeded(format: "xml", limit: "maxDepth",
                                             maximum: usesHugeOption ? 2048 : libxml2MaxDepth,
                                             location: location).withMessage(message)
        case Int(XML_ERR_NAME_TOO_LONG.rawValue):
            return FormatError.limitExceeded(format: "xml", limit: "maxNameLength", maximum: 50_000,
                                             location: location).withMessage(message)
        case Int(XML_ERR_DOCUMENT_END.rawValue) where message.contains("Premature"),
             Int(XML_ERR_TAG_NOT_FINISHED.rawValue):
            return FormatError(.truncated, format: "xml", message, location: location)
        default:
            return FormatError(.malformed, format: "xml", message, location: location)
        }
    }

    /// A SAX2 handler: libxml2's own SAX2 functions for the DTD (so internal entities and
    /// declarations work), ours for content; no external subset or entity resolver.
    private static func makeHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.internalSubset = xmlSAX2InternalSubset
        sax.isStandalone = xmlSAX2IsStandalone
        sax.hasInternalSubset = xmlSAX2HasInternalSubset
        sax.hasExternalSubset = xmlSAX2HasExternalSubset
        sax.getEntity = xmlSAX2GetEntity
        sax.getParameterEntity = xmlSAX2GetParameterEntity
        sax.entityDecl = saxEntityDecl
        sax.attributeDecl = xmlSAX2AttributeDecl
        sax.elementDecl = xmlSAX2ElementDecl
        sax.notationDecl = xmlSAX2NotationDecl
        sax.unparsedEntityDecl = xmlSAX2UnparsedEntityDecl
        sax.startDocument = xmlSAX2StartDocument
        sax.endDocument = xmlSAX2EndDocument
        sax.startElementNs = saxStartElement
        sax.endElementNs = saxEndElement
        sax.characters = saxCharacters
        sax.ignorableWhitespace = saxCharacters
        sax.cdataBlock = saxCDATA
        sax.comment = saxComment
        sax.processingInstruction = saxProcessingInstruction
        sax.serror = saxStructuredError
        return sax
    }
}

extension FormatError {
    func withMessage(_ text: String) -> FormatError {
        var copy = self
        copy.message = "\(message): \(text)"
        return copy
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        return String(scalars)
    }
}

// MARK: - C callbacks: look up the handler's state and forward; never throw.

/// The part of the document libxml2 has not read yet.
struct InputCursor {
    var next: UnsafeRawPointer
    var remaining: Int
}

/// libxml2's read callback: copies the next bytes of the document into its input buffer.
private func readInput(context: UnsafeMutableRawPointer?, buffer: UnsafeMutablePointer<CChar>?,
                       length: Int32) -> Int32 {
    guard let cursor = context?.assumingMemoryBound(to: InputCursor.self), let buffer, length > 0 else { return 0 }
    let count = min(Int(length), cursor.pointee.remaining)
    UnsafeMutableRawPointer(buffer).copyMemory(from: cursor.pointee.next, byteCount: count)
    cursor.pointee.next += count
    cursor.pointee.remaining -= count
    return Int32(count)
}

/// The handler state of the context `ctx` (its `_private`), with `activeContext` set to `ctx`.
private func activeState(_ ctx: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<SAXHandler.State>? {
    guard let ctx else { return nil }
    let context = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let state = context.pointee._private?.assumingMemoryBound(to: SAXHandler.State.self) else { return nil }
    state.pointee.activeContext = context
    return state
}

/// libxml2's declaration, then a refusal of an internal entity whose replacement text reaches
/// itself through other declared entities: libxml2 finds such a loop only while expanding it, after
/// work that grows with the references' fan-out.
private func saxEntityDecl(ctx: UnsafeMutableRawPointer?, name: UnsafePointer<xmlChar>?, type: Int32,
                           publicId: UnsafePointer<xmlChar>?, systemId: UnsafePointer<xmlChar>?,
                           content: UnsafeMutablePointer<xmlChar>?) {
    xmlSAX2EntityDecl(ctx, name, type, publicId, systemId, content)
    guard let ctx, let name, let content, let state = activeState(ctx),
          let handler = state.pointee.handler?.takeUnretainedValue(),
          let document = ctx.assumingMemoryBound(to: xmlParserCtxt.self).pointee.myDoc else { return }
    let start = String(cString: name)
    let references = EntityReferences.names(in: String(cString: content))
    for reference in references where xmlGetDocEntity(document, reference) == nil {
        state.pointee.forwardReferencedEntities.insert(reference)
    }
    // A loop through this entity needs an earlier entity that referred to it before it existed.
    guard state.pointee.forwardReferencedEntities.contains(start) else { return }
    var visited: Set<String> = []
    var pending = references
    while let next = pending.popLast() {
        state.pointee.entityLoopSteps += 1
        let problem: String? = next == start
            ? "the entity '\(start)' refers to itself (an entity reference loop)"
            : state.pointee.entityLoopSteps > EntityReferences.maxSteps
            ? "the internal subset's entity references are too many to check for loops" : nil
        if let problem {
            return handler.fail(FormatError(.malformed, format: "xml", problem, location: handler.currentLocation()))
        }
        guard visited.insert(next).inserted, let entity = xmlGetDocEntity(document, next),
              let text = entity.pointee.content else { continue }
        pending += EntityReferences.names(in: String(cString: text))
    }
}

/// The names of the general entity references (`&name;`) in an entity's replacement text.
enum EntityReferences {
    /// The most references one document's loop checks follow, so a crafted subset cannot make
    /// them quadratic.
    static let maxSteps = 1_000_000

    static func names(in text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            rest = rest[rest.index(after: amp)...]
            guard rest.first != "#", let end = rest.firstIndex(of: ";") else { continue }
            let name = rest[..<end]
            if !name.isEmpty, !name.contains(where: { $0 == "&" || $0 == " " || $0 == "<" }) {
                names.append(String(name))
            }
            rest = rest[rest.index(after: end)...]
        }
        return names
    }
}

private func saxStartElement(
    ctx: UnsafeMutableRawPointer?, localName: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?,
    uri: UnsafePointer<xmlChar>?, namespaceCount: Int32, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
    attributeCount: Int32, defaultedCount: Int32, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
    guard let state = activeState(ctx) else { return }
    SAXHandler.startElement(state, localName: localName, prefix: prefix, uri: uri,
                            namespaceCount: namespaceCount, namespaces: namespaces,
                            attributeCount: attributeCount, attributes: attributes)
}

private func saxEndElement(ctx: UnsafeMutableRawPointer?, localName: UnsafePointer<xmlChar>?,
                           prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?) {
    guard let state = activeState(ctx) else { return }
    SAXHandler.endElement(state, localName: localName, prefix: prefix, uri: uri)
}

private func saxCharacters(ctx: UnsafeMutableRawPointer?, bytes: UnsafePointer<xmlChar>?, count: Int32) {
    guard let ctx else { return }
    let context = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let state = context.pointee._private?.assumingMemoryBound(to: SAXHandler.State.self) else { return }
    SAXHandler.characters(state, context, bytes, count: count)
}

private func saxCDATA(ctx: UnsafeMutableRawPointer?, bytes: UnsafePointer<xmlChar>?, count: Int32) {
    guard let state = activeState(ctx) else { return }
    SAXHandler.cdata(state, bytes, count: count)
}

private func saxComment(ctx: UnsafeMutableRawPointer?, value: UnsafePointer<xmlChar>?) {
    guard let state = activeState(ctx) else { return }
    SAXHandler.comment(state, value)
}

private func saxProcessingInstruction(ctx: UnsafeMutableRawPointer?, target: UnsafePointer<xmlChar>?,
                                      data: UnsafePointer<xmlChar>?) {
    guard let state = activeState(ctx) else { return }
    SAXHandler.processingInstruction(state, target: target, data: data)
}

/// Records the first fatal error (libxml2 may report follow-on errors after it).
private func saxStructuredError(userData: UnsafeMutableRawPointer?, error: xmlErrorPtr?) {
    guard let error, error.pointee.level == XML_ERR_FATAL || error.pointee.level == XML_ERR_ERROR,
          error.pointee.domain != Int32(XML_FROM_NAMESPACE.rawValue) else { return }
    guard let state = activeState(userData), state.pointee.parseError == nil else { return }
    var offset: Int?
    if let context = state.pointee.context, state.pointee.activeContext == context {
        let consumed = xmlByteConsumed(context)
        if consumed >= 0 { offset = Int(consumed) }
    }
    state.pointee.parseError = SAXParser.formatError(from: UnsafePointer(error), usesHugeOption: false,
                                                     byteOffset: offset)
}
