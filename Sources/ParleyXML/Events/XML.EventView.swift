import Parley

extension XML {
    /// The event in progress during ``XML/EventReader/forEachView(_:)``: a description of it
    /// that points into the parser's own buffers and copies nothing until asked.
    ///
    /// Reading ``kind``, ``utf8Count`` or ``withUTF8(_:)`` costs no allocation; ``name`` comes
    /// from a cache of the names already seen; ``text``, ``target`` and attribute values are made
    /// as strings only when read.
    ///
    /// A view, its ``attributes`` and ``namespaces``, and every pointer it hands out are valid only
    /// during the call that received it: the view is non-copyable and is passed `borrowing`, so it
    /// cannot be stored; keep what you need as strings or ``XML/Event`` (`XML.Event(view)`).
    ///
    /// ```swift
    /// var titles: [String] = []
    /// var inTitle = false
    /// try XML.EventReader(body).forEachView { event in
    ///     switch event.kind {
    ///     case .startElement: inTitle = event.name.localName == "title"
    ///     case .text where inTitle: titles.append(event.text)
    ///     default: inTitle = false
    ///     }
    /// }
    /// ```
    public struct EventView: ~Copyable {
        /// What an event is.
        public enum Kind: Sendable, Hashable {
            /// A start tag (or the start of an empty-element tag): ``EventView/name``,
            /// ``EventView/attributes`` and ``EventView/namespaces`` describe it.
            case startElement
            /// An end tag (or the end of an empty-element tag): ``EventView/name`` describes it.
            case endElement
            /// Character data between two pieces of markup, coalesced, with references resolved
            /// and line ends normalised: ``EventView/text``.
            case text
            /// The content of a CDATA section: ``EventView/text``.
            case cdata
            /// A comment's content: ``EventView/text``.
            case comment
            /// A processing instruction: ``EventView/target`` and its data in ``EventView/text``.
            case processingInstruction
        }

        /// What this event is.
        public let kind: Kind

        /// The state of the parse in progress: the name cache, entity decoding and limits.
        let state: UnsafeMutablePointer<SAXHandler.State>
        /// The local name of an element, or a processing instruction's target (NUL-terminated).
        let first: UnsafePointer<UInt8>?
        /// The prefix of an element (NUL-terminated), or `nil`.
        let prefix: UnsafePointer<UInt8>?
        /// The namespace URI of an element (NUL-terminated), or `nil`.
        let uri: UnsafePointer<UInt8>?
        /// The text of a text, CDATA or comment event, or a processing instruction's data.
        let bytes: UnsafePointer<UInt8>?
        /// The number of bytes at `bytes`.
        @usableFromInline let count: Int
        /// libxml2's attribute array: five pointers per attribute (local name, prefix, URI, value
        /// start, value end).
        let attributeBase: UnsafePointer<UnsafePointer<UInt8>?>?
        let attributeCount: Int
        /// libxml2's namespace array: two pointers per declaration (prefix, URI).
        let namespaceBase: UnsafePointer<UnsafePointer<UInt8>?>?
        let namespaceCount: Int

        init(
            kind: Kind, state: UnsafeMutablePointer<SAXHandler.State>, first: UnsafePointer<UInt8>? = nil,
            prefix: UnsafePointer<UInt8>? = nil,
            uri: UnsafePointer<UInt8>? = nil, bytes: UnsafePointer<UInt8>? = nil, count: Int = 0,
            attributes: UnsafePointer<UnsafePointer<UInt8>?>? = nil, attributeCount: Int = 0,
            namespaces: UnsafePointer<UnsafePointer<UInt8>?>? = nil, namespaceCount: Int = 0
        ) {
            self.kind = kind
            self.state = state
            self.first = first
            self.prefix = prefix
            self.uri = uri
            self.bytes = bytes
            self.count = count
            self.attributeBase = attributes
            self.attributeCount = attributeCount
            self.namespaceBase = namespaces
            self.namespaceCount = namespaceCount
        }

        /// The element's name for ``Kind/startElement`` and ``Kind/endElement``; an empty name
        /// for the other kinds.
        ///
        /// Names come from a cache keyed by the parser's interned strings, so reading it for
        /// every element allocates only for names not seen recently.
        public var name: Name {
            guard kind == .startElement || kind == .endElement, let first else { return Name("") }
            return SAXHandler.name(state, first, prefix, uri)
        }

        /// The position of ``name`` in the handler's name table (see `SAXHandler.State.nameTable`).
        var nameOrdinal: Int {
            guard let first else { return -1 }
            return SAXHandler.nameOrdinal(state, first, prefix, uri)
        }

        /// `name.qualifiedName` of a start or end tag, from the name cache.
        var qualifiedName: String {
            guard let first else { return "" }
            return SAXHandler.qualifiedName(state, first, prefix, uri)
        }

        /// `name.qualifiedName` of a start or end tag and its number (see `SAXHandler.State.keyIDs`).
        var qualifiedNameAndID: (String, Int32) {
            guard let first else { return ("", -1) }
            return SAXHandler.qualifiedNameAndID(state, first, prefix, uri)
        }

        /// Whether this is a start or end tag of an element with local name `localName` in
        /// namespace `namespaceURI`, compared without making a string.
        ///
        /// - Parameters:
        ///   - localName: The local name.
        ///   - namespaceURI: The namespace URI, or `nil` for no namespace.
        /// - Returns: `true` when the element's name matches.
        public func isElement(_ localName: String, namespaceURI: String? = nil) -> Bool {
            guard kind == .startElement || kind == .endElement, let first else { return false }
            return cStringEquals(first, localName) && optionalCStringEquals(uri, namespaceURI)
        }

        /// The text of a ``Kind/text``, ``Kind/cdata`` or ``Kind/comment`` event, or a
        /// processing instruction's data; empty for elements. Made as a string when read.
        public var text: String {
            String(utf8: UnsafeBufferPointer(start: bytes, count: count))
        }

        /// The number of UTF-8 bytes in ``text``, without making it.
        @inlinable public var utf8Count: Int { count }

        /// Calls `body` with the UTF-8 bytes of ``text``, without making a string.
        ///
        /// - Parameter body: Receives the bytes, valid only during the call.
        /// - Returns: What `body` returns.
        public func withUTF8<Result, Failure: Error>(
            _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            try body(UnsafeBufferPointer(start: bytes, count: count))
        }

        /// A processing instruction's target; empty for the other kinds.
        public var target: String {
            guard kind == .processingInstruction, let first else { return "" }
            return String(cString: first)
        }

        /// The attributes of a start tag, in document order, namespace declarations excluded;
        /// empty for the other kinds.
        public var attributes: AttributeList {
            _read {
                let list = AttributeList(state: state, base: attributeBase, count: attributeCount)
                yield list
            }
        }

        /// The namespace declarations a start tag makes, in document order; empty for the other
        /// kinds.
        public var namespaces: NamespaceList {
            _read {
                let list = NamespaceList(base: namespaceBase, count: namespaceCount)
                yield list
            }
        }
    }
}

extension XML.EventView {
    /// The attributes of the start tag in progress: a view over the parser's own array, valid
    /// only during the event's call.
    public struct AttributeList: ~Copyable {
        let state: UnsafeMutablePointer<SAXHandler.State>
        let base: UnsafePointer<UnsafePointer<UInt8>?>?
        /// The number of attributes.
        public let count: Int

        init(state: UnsafeMutablePointer<SAXHandler.State>, base: UnsafePointer<UnsafePointer<UInt8>?>?, count: Int) {
            self.state = state
            self.base = base
            self.count = base == nil ? 0 : count
        }

        /// Whether the start tag has no attributes.
        public var isEmpty: Bool { count == 0 }

        /// The attribute at `index`, in document order.
        ///
        /// - Parameter index: A position from 0 to `count - 1`.
        public subscript(index: Int) -> XML.EventView.Attribute {
            _read {
                precondition(index >= 0 && index < count, "attribute index out of range")
                let attribute = XML.EventView.Attribute(state: state, fields: base! + 5 * index)
                yield attribute
            }
        }

        /// The value of the attribute whose qualified name (`prefix:local`, or `local`) is
        /// `qualifiedName`, or `nil`; the name is compared without making a string.
        ///
        /// - Parameter qualifiedName: The attribute's name as written in the document.
        public subscript(qualifiedName: String) -> String? {
            for index in 0..<count {
                let fields = base! + 5 * index
                guard let local = fields[0] else { continue }
                let matches: Bool
                if let prefix = fields[1] {
                    matches = qualifiedNameEquals(prefix: prefix, local: local, qualifiedName)
                } else {
                    matches = cStringEquals(local, qualifiedName)
                }
                if matches { return XML.EventView.Attribute(state: state, fields: fields).value }
            }
            return nil
        }

        /// The value of the attribute with local name `localName` in namespace `namespaceURI`,
        /// or `nil`.
        ///
        /// - Parameters:
        ///   - localName: The attribute's local name.
        ///   - namespaceURI: The namespace URI, or `nil` for an unprefixed attribute.
        public subscript(localName: String, namespaceURI namespaceURI: String?) -> String? {
            for index in 0..<count {
                let fields = base! + 5 * index
                guard let local = fields[0], cStringEquals(local, localName),
                      optionalCStringEquals(fields[2], namespaceURI) else { continue }
                return XML.EventView.Attribute(state: state, fields: fields).value
            }
            return nil
        }

        /// Calls `body` with each attribute in document order.
        ///
        /// - Parameter body: Receives each attribute, valid only during its call.
        public func forEach<Failure: Error>(
            _ body: (borrowing XML.EventView.Attribute) throws(Failure) -> Void
        ) throws(Failure) {
            for index in 0..<count {
                try body(XML.EventView.Attribute(state: state, fields: base! + 5 * index))
            }
        }

        /// The attributes as values that outlive the event.
        ///
        /// - Returns: One ``XML/Attribute`` per attribute, in document order.
        public func copied() -> [XML.Attribute] {
            guard count > 0, let base else { return [] }
            return (0..<count).map { index in
                let attribute = XML.EventView.Attribute(state: state, fields: base + 5 * index)
                return XML.Attribute(attribute.name, value: attribute.value)
            }
        }
    }

    /// One attribute of the start tag in progress, valid only during the event's call.
    public struct Attribute: ~Copyable {
        let state: UnsafeMutablePointer<SAXHandler.State>
        /// libxml2's five fields: local name, prefix, URI, value start, value end.
        let fields: UnsafePointer<UnsafePointer<UInt8>?>

        init(state: UnsafeMutablePointer<SAXHandler.State>, fields: UnsafePointer<UnsafePointer<UInt8>?>) {
            self.state = state
            self.fields = fields
        }

        /// The attribute's name, from the same cache as element names.
        public var name: XML.Name {
            guard let local = fields[0] else { return XML.Name("") }
            return SAXHandler.name(state, local, fields[1], fields[2])
        }

        /// The position of ``name`` in the handler's name table (see `SAXHandler.State.nameTable`).
        var nameOrdinal: Int {
            guard let local = fields[0] else { return -1 }
            return SAXHandler.nameOrdinal(state, local, fields[1], fields[2])
        }

        /// `@` and `name.qualifiedName`: the attribute's key in the value mapping, from the name cache.
        var memberKey: String {
            guard let local = fields[0] else { return "@" }
            return SAXHandler.attributeKey(state, local, fields[1], fields[2])
        }

        /// The attribute's value, normalised, with references resolved. Made as a string when
        /// read.
        ///
        /// What resolving internal entity references adds counts against
        /// `DecodingLimits/maxExpansionRatio`: a value that passes it reads as empty, and the
        /// parse stops with `FormatError` `.limitExceeded` once the event's call returns.
        public var value: String {
            withValueBytes { String(utf8: $0) }
        }

        /// Calls `body` with the UTF-8 bytes of the value, references resolved, without making a
        /// string (a value with an entity reference is decoded into a temporary buffer first).
        ///
        /// - Parameter body: Receives the bytes, valid only during the call.
        /// - Returns: What `body` returns.
        public func withValueBytes<Result, Failure: Error>(
            _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            guard let start = fields[3], let end = fields[4] else {
                return try body(UnsafeBufferPointer(start: nil, count: 0))
            }
            return try SAXHandler.withAttributeValue(state, start, count: end - start, body)
        }
    }

    /// The namespace declarations of the start tag in progress: a view over the parser's own
    /// array, valid only during the event's call.
    public struct NamespaceList: ~Copyable {
        let base: UnsafePointer<UnsafePointer<UInt8>?>?
        /// The number of declarations.
        public let count: Int

        init(base: UnsafePointer<UnsafePointer<UInt8>?>?, count: Int) {
            self.base = base
            self.count = base == nil ? 0 : count
        }

        /// Whether the start tag declares no namespace.
        public var isEmpty: Bool { count == 0 }

        /// The declaration at `index`, in document order, as a value.
        ///
        /// - Parameter index: A position from 0 to `count - 1`.
        public subscript(index: Int) -> XML.Namespace {
            precondition(index >= 0 && index < count, "namespace index out of range")
            let fields = base! + 2 * index
            return XML.Namespace(prefix: fields[0].map { String(cString: $0) },
                                 uri: fields[1].map { String(cString: $0) } ?? "")
        }

        /// The declarations as values that outlive the event.
        ///
        /// - Returns: One ``XML/Namespace`` per declaration, in document order.
        public func copied() -> [XML.Namespace] {
            guard count > 0 else { return [] }
            return (0..<count).map { self[$0] }
        }
    }
}

extension XML.Event {
    /// Copies the event a view describes into a value that outlives it.
    ///
    /// - Parameter view: The event in progress.
    public init(_ view: borrowing XML.EventView) {
        switch view.kind {
        case .startElement:
            self = .startElement(view.name, attributes: view.attributes.copied(), namespaces: view.namespaces.copied())
        case .endElement: self = .endElement(view.name)
        case .text: self = .text(view.text)
        case .cdata: self = .cdata(view.text)
        case .comment: self = .comment(view.text)
        case .processingInstruction: self = .processingInstruction(target: view.target, data: view.text)
        }
    }
}

/// Whether the NUL-terminated `cString` holds exactly the UTF-8 of `string`.
func cStringEquals(_ cString: UnsafePointer<UInt8>, _ string: String) -> Bool {
    var string = string
    return string.withUTF8 { utf8 in
        for index in 0..<utf8.count where cString[index] != utf8[index] || utf8[index] == 0 { return false }
        return cString[utf8.count] == 0
    }
}

/// `cStringEquals` for optional sides: both `nil`, or both present and equal.
func optionalCStringEquals(_ cString: UnsafePointer<UInt8>?, _ string: String?) -> Bool {
    switch (cString, string) {
    case (nil, nil): true
    case (let cString?, let string?): cStringEquals(cString, string)
    default: false
    }
}

/// Whether `prefix:local` (both NUL-terminated) is exactly `qualifiedName`.
func qualifiedNameEquals(prefix: UnsafePointer<UInt8>, local: UnsafePointer<UInt8>, _ qualifiedName: String) -> Bool {
    var name = qualifiedName
    return name.withUTF8 { utf8 in
        var index = 0
        var cursor = prefix
        while cursor.pointee != 0 {
            guard index < utf8.count, utf8[index] == cursor.pointee else { return false }
            index += 1
            cursor += 1
        }
        guard index < utf8.count, utf8[index] == UInt8(ascii: ":") else { return false }
        index += 1
        cursor = local
        while cursor.pointee != 0 {
            guard index < utf8.count, utf8[index] == cursor.pointee else { return false }
            index += 1
            cursor += 1
        }
        return index == utf8.count
    }
}
