public import Parley

extension XML {
    /// A streaming reader that delivers a document's events to a closure without building a tree,
    /// on libxml2's SAX2 parser: the way to read large bodies.
    ///
    /// ```swift
    /// var titles: [String] = []
    /// var inTitle = false
    /// try XML.EventReader(body).forEach { event in
    ///     switch event {
    ///     case .startElement(let name, _, _): inTitle = name.localName == "title"
    ///     case .text(let text) where inTitle: titles.append(text)
    ///     default: inTitle = false
    ///     }
    /// }
    /// ```
    ///
    /// The reader applies the same secure defaults as ``XMLFormat``: no network, no external
    /// entity or DTD, bounded entity expansion, and the `DecodingLimits` it is given.
    public struct EventReader: Sendable {
        /// The document's bytes.
        public let bytes: [UInt8]
        /// The limits in force: `maxBodyBytes`, `maxDepth`, `maxNodes` (elements) and
        /// `maxExpansionRatio` apply.
        public let limits: DecodingLimits

        /// Creates a reader over a document.
        ///
        /// - Parameters:
        ///   - bytes: The document, in any encoding libxml2 detects from a byte-order mark or the
        ///     XML declaration (UTF-8 by default).
        ///   - limits: The limits to apply; `DecodingLimits/standard` by default.
        public init(_ bytes: [UInt8], limits: DecodingLimits = .standard) {
            self.bytes = bytes
            self.limits = limits
        }

        /// Creates a reader over a document held in any byte sequence (`Data`, a slice, …).
        ///
        /// - Parameters:
        ///   - bytes: The document.
        ///   - limits: The limits to apply.
        public init<Bytes: Sequence<UInt8>>(_ bytes: Bytes, limits: DecodingLimits = .standard) {
            self.init(Array(bytes), limits: limits)
        }

        /// Parses the document and calls `body` with each event in order.
        ///
        /// - Parameter body: Called for every event; throwing from it stops the parse, and the
        ///   error is rethrown.
        /// - Throws: The error `body` threw, or `FormatError` with code `.malformed` or
        ///   `.truncated` (with line and column) for a document that is not well-formed, or
        ///   `.limitExceeded` when a limit is reached. Events before the error have been delivered.
        public func forEach(_ body: (Event) throws -> Void) throws {
            try withoutActuallyEscaping(body) { body in
                let handler = EventHandler(limits: limits, body: body)
                try bytes.withUnsafeBytes { buffer in
                    let parser = try SAXParser(bytes: buffer, handler: handler)
                    try parser.parse()
                }
            }
        }

        /// Parses the document and returns all its events.
        ///
        /// - Returns: The events in document order.
        /// - Throws: As ``forEach(_:)``.
        public func events() throws -> [Event] {
            var events: [Event] = []
            try forEach { events.append($0) }
            return events
        }
    }
}

/// Forwards every event to a closure, converting its error into a stop.
private final class EventHandler: SAXHandler {
    let body: (XML.Event) throws -> Void

    init(limits: DecodingLimits, body: @escaping (XML.Event) throws -> Void) {
        self.body = body
        super.init(limits: limits)
    }

    private func send(_ event: XML.Event) {
        do { try body(event) } catch { fail(error) }
    }

    override func handleStartElement(_ name: XML.Name, attributes: [XML.Attribute], namespaces: [XML.Namespace]) {
        send(.startElement(name, attributes: attributes, namespaces: namespaces))
    }
    override func handleEndElement(_ name: XML.Name) { send(.endElement(name)) }
    override func handleText(_ text: String) { send(.text(text)) }
    override func handleCDATA(_ text: String) { send(.cdata(text)) }
    override func handleComment(_ text: String) { send(.comment(text)) }
    override func handleProcessingInstruction(target: String, data: String) {
        send(.processingInstruction(target: target, data: data))
    }
}
