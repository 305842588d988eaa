public import Parley

extension XML {
    /// A streaming reader that delivers a document's events to a closure without building a tree,
    /// on libxml2's SAX2 parser: the way to read large bodies.
    ///
    /// ``forEachView(_:)`` is the fast form: each event arrives as an ``XML/EventView`` that
    /// points into the parser's buffers, valid only during the call, and nothing is copied until
    /// read.
    ///
    /// ```swift
    /// var elements = 0
    /// var textBytes = 0
    /// try XML.EventReader(body).forEachView { event in
    ///     switch event.kind {
    ///     case .startElement: elements += 1
    ///     case .text: textBytes += event.utf8Count
    ///     default: break
    ///     }
    /// }
    /// ```
    ///
    /// ``forEach(_:)`` delivers the same events as ``XML/Event`` values, with strings and arrays
    /// that can be kept:
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
        /// The limits in force: `maxBodyBytes`, `maxDepth`, `maxNodes` (every node, attributes and texts included) and
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

        /// Parses the document and calls `body` with a view of each event in order, copying
        /// nothing: the fastest way to read a large body.
        ///
        /// ```swift
        /// var books = 0
        /// var textBytes = 0
        /// try XML.EventReader(body).forEachView { event in
        ///     switch event.kind {
        ///     case .startElement where event.isElement("book"):
        ///         books += 1
        ///         if let id = event.attributes["id"] { print(id) }
        ///     case .text: textBytes += event.utf8Count
        ///     default: break
        ///     }
        /// }
        /// ```
        ///
        /// The view points into the parser's buffers and is valid only during the call that
        /// receives it (it is non-copyable and borrowed, so it cannot be kept); read what you need
        /// as strings, or copy the whole event with `XML.Event(view)`. The same events arrive as
        /// with ``forEach(_:)``, under the same limits.
        ///
        /// - Parameter body: Called for every event; throwing from it stops the parse, and the
        ///   error is rethrown.
        /// - Throws: As ``forEach(_:)``.
        public func forEachView(_ body: (borrowing EventView) throws -> Void) throws {
            try withoutActuallyEscaping(body) { body in
                let handler = ViewForwarder(limits: limits, body: body)
                try bytes.withUnsafeBytes { buffer in
                    let parser = try SAXParser(bytes: buffer, handler: handler)
                    try parser.parse()
                }
            }
        }

        /// Parses the document and calls `body` with each event in order.
        ///
        /// Each event is a value that can be kept; for large bodies ``forEachView(_:)`` delivers
        /// the same events without making a string or array for each.
        ///
        /// - Parameter body: Called for every event; throwing from it stops the parse, and the
        ///   error is rethrown.
        /// - Throws: The error `body` threw, or `FormatError` with code `.malformed` or
        ///   `.truncated` (with line and column) for a document that is not well-formed, or
        ///   `.limitExceeded` when a limit is reached. Events before the error have been delivered.
        public func forEach(_ body: (Event) throws -> Void) throws {
            try withoutActuallyEscaping(body) { body in
                let handler = EventForwarder(limits: limits, body: body)
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
