internal import CParleyXML
import Parley

/// Receives libxml2's SAX2 callbacks for one parse: tracks depth, node count and expansion,
/// coalesces character data, and records the first error. Subclasses build events, trees or
/// values by overriding the `handle…` methods.
///
/// Callbacks never throw: a subclass stores its failure with `fail(_:)`, which stops the
/// parser; `SAXParser` throws it once libxml2 returns.
class SAXHandler {
    /// The mutable state of a parse, behind a pointer so the hot callbacks pay no dynamic
    /// exclusivity checks (the handler is only ever used on the parsing thread).
    struct State {
        /// Bytes of text and attribute values delivered so far (entity expansion included).
        var deliveredBytes = 0
        /// Bytes delivered past which expansion counts as an attack: 64 KiB + ratio × input.
        var maxDeliveredBytes = Int.max
        var depth = 0
        var elementCount = 0
        /// The failure recorded by a callback, thrown after libxml2 returns.
        var failure: (any Error)?
        /// Whether a failure was recorded: callbacks after it do nothing.
        var stopped = false
        /// Pending character data (`textCount` bytes of `textCapacity`), flushed before
        /// every other event.
        var text: UnsafeMutablePointer<UInt8>?
        var textCount = 0
        var textCapacity = 0
        /// The document's parser context, to stop it when a callback fails.
        var context: xmlParserCtxtPtr?
        /// The context of the callback in progress: the document's, or a nested one parsing an
        /// entity's replacement text.
        var activeContext: xmlParserCtxtPtr?
        /// The first fatal error libxml2 reported, with its location.
        var parseError: FormatError?
    }

    /// A direct-mapped cache slot: a name converted from libxml2's interned (dictionary) pointers.
    struct NameSlot {
        var localName: UnsafeRawPointer?
        var prefix: UnsafeRawPointer?
        var uri: UnsafeRawPointer?
        var name: XML.Name
    }

    static let cacheSize = 512

    let limits: DecodingLimits
    let state: UnsafeMutablePointer<State>
    private let names: UnsafeMutablePointer<NameSlot>

    init(limits: DecodingLimits) {
        self.limits = limits
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        names = .allocate(capacity: Self.cacheSize)
        names.initialize(repeating: NameSlot(name: XML.Name("")), count: Self.cacheSize)
    }

    deinit {
        state.pointee.text?.deallocate()
        names.deinitialize(count: Self.cacheSize)
        names.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    var failure: (any Error)? { state.pointee.failure }
    var depth: Int { state.pointee.depth }
    var context: xmlParserCtxtPtr? {
        get { state.pointee.context }
        set { state.pointee.context = newValue }
    }
    var activeContext: xmlParserCtxtPtr? {
        get { state.pointee.activeContext }
        set { state.pointee.activeContext = newValue }
    }
    var parseError: FormatError? {
        get { state.pointee.parseError }
        set { state.pointee.parseError = newValue }
    }

    func begin(inputBytes: Int) {
        let (product, overflow) = inputBytes.multipliedReportingOverflow(by: max(limits.maxExpansionRatio, 1))
        state.pointee.maxDeliveredBytes = overflow ? Int.max : product &+ 65_536
    }

    // MARK: Overridable events

    func handleStartElement(_ name: XML.Name, attributes: [XML.Attribute], namespaces: [XML.Namespace]) {}
    func handleEndElement(_ name: XML.Name) {}
    func handleText(_ text: String) {}
    func handleCDATA(_ text: String) {}
    func handleComment(_ text: String) {}
    func handleProcessingInstruction(target: String, data: String) {}

    // MARK: Failure

    /// Records `error` (the first one wins) and stops the parser.
    final func fail(_ error: any Error) {
        if !state.pointee.stopped {
            state.pointee.failure = error
            state.pointee.stopped = true
        }
        if let activeContext, activeContext != context { xmlStopParser(activeContext) }
        if let context { xmlStopParser(context) }
    }

    private func deliver(_ count: Int) -> Bool {
        state.pointee.deliveredBytes &+= count
        if state.pointee.deliveredBytes > state.pointee.maxDeliveredBytes {
            fail(FormatError.limitExceeded(format: "xml", limit: "maxExpansionRatio",
                                           maximum: limits.maxExpansionRatio, location: currentLocation()))
            return false
        }
        return true
    }

    // MARK: Called from the C callbacks

    /// The name for libxml2's interned pointers, from the cache when seen before.
    @inline(__always)
    final func name(_ localName: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?,
                    _ uri: UnsafePointer<xmlChar>?) -> XML.Name {
        let key = UnsafeRawPointer(localName)
        let slot = names + ((Int(bitPattern: key) &>> 4) & (Self.cacheSize - 1))
        if slot.pointee.localName == key, slot.pointee.prefix == UnsafeRawPointer(prefix),
           slot.pointee.uri == UnsafeRawPointer(uri) {
            return slot.pointee.name
        }
        let name = XML.Name(String(cString: localName), prefix: prefix.map { String(cString: $0) },
                            namespaceURI: uri.map { String(cString: $0) })
        slot.pointee = NameSlot(localName: key, prefix: UnsafeRawPointer(prefix), uri: UnsafeRawPointer(uri), name: name)
        return name
    }

    @inline(__always)
    final func flushText() {
        guard state.pointee.textCount > 0 else { return }
        let string = String(decoding: UnsafeBufferPointer(start: state.pointee.text, count: state.pointee.textCount),
                            as: UTF8.self)
        state.pointee.textCount = 0
        handleText(string)
    }

    final func startElement(
        localName: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        namespaceCount: Int32, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int32, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard !state.pointee.stopped, let localName else { return }
        flushText()
        state.pointee.depth += 1
        state.pointee.elementCount += 1
        if state.pointee.depth > limits.maxDepth {
            return fail(FormatError.limitExceeded(format: "xml", limit: "maxDepth", maximum: limits.maxDepth,
                                                  actual: state.pointee.depth, location: currentLocation()))
        }
        if state.pointee.elementCount > limits.maxNodes {
            return fail(FormatError.limitExceeded(format: "xml", limit: "maxNodes", maximum: limits.maxNodes,
                                                  location: currentLocation()))
        }
        let elementName = name(localName, prefix, uri)
        var declared: [XML.Namespace] = []
        if namespaceCount > 0, let namespaces {
            declared.reserveCapacity(Int(namespaceCount))
            for i in 0..<Int(namespaceCount) {
                let uriString = namespaces[2 * i + 1].map { String(cString: $0) } ?? ""
                declared.append(XML.Namespace(prefix: namespaces[2 * i].map { String(cString: $0) }, uri: uriString))
            }
        }
        var attributeList: [XML.Attribute] = []
        if attributeCount > 0, let attributes {
            attributeList.reserveCapacity(Int(attributeCount))
            for i in 0..<Int(attributeCount) {
                let base = 5 * i
                guard let local = attributes[base], let start = attributes[base + 3],
                      let end = attributes[base + 4] else { continue }
                let count = end - start
                guard deliver(count) else { return }
                let value = attributeValue(start, count: count)
                attributeList.append(XML.Attribute(name(local, attributes[base + 1], attributes[base + 2]),
                                                   value: value))
            }
        }
        handleStartElement(elementName, attributes: attributeList, namespaces: declared)
    }

    /// An attribute value: libxml2 leaves entity references (and `&#38;` for `&amp;`) in place
    /// when it does not substitute entities, so decode them here, internal entities only.
    private func attributeValue(_ start: UnsafePointer<xmlChar>, count: Int) -> String {
        let buffer = UnsafeBufferPointer(start: start, count: count)
        guard buffer.contains(UInt8(ascii: "&")), let context = activeContext ?? context else {
            return String(decoding: buffer, as: UTF8.self)
        }
        guard let decoded = xmlStringLenDecodeEntities(context, start, Int32(count), XML_SUBSTITUTE_REF, 0, 0, 0) else {
            return String(decoding: buffer, as: UTF8.self)
        }
        defer { free(decoded) }
        let string = String(cString: decoded)
        _ = deliver(string.utf8.count - count)
        return string
    }

    final func endElement(localName: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?,
                          uri: UnsafePointer<xmlChar>?) {
        guard !state.pointee.stopped, let localName else { return }
        flushText()
        state.pointee.depth -= 1
        handleEndElement(name(localName, prefix, uri))
    }

    final func characters(_ bytes: UnsafePointer<xmlChar>?, count: Int32) {
        guard !state.pointee.stopped, let bytes, count > 0, deliver(Int(count)) else { return }
        let count = Int(count)
        let needed = state.pointee.textCount + count
        if needed > state.pointee.textCapacity {
            let capacity = max(needed, 2 * state.pointee.textCapacity, 256)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            if let old = state.pointee.text {
                grown.update(from: old, count: state.pointee.textCount)
                old.deallocate()
            }
            state.pointee.text = grown
            state.pointee.textCapacity = capacity
        }
        (state.pointee.text! + state.pointee.textCount).update(from: bytes, count: count)
        state.pointee.textCount = needed
    }

    final func cdata(_ bytes: UnsafePointer<xmlChar>?, count: Int32) {
        guard !state.pointee.stopped, let bytes, count >= 0, deliver(Int(count)) else { return }
        flushText()
        handleCDATA(String(decoding: UnsafeBufferPointer(start: bytes, count: Int(count)), as: UTF8.self))
    }

    final func comment(_ value: UnsafePointer<xmlChar>?) {
        guard !state.pointee.stopped else { return }
        flushText()
        handleComment(value.map { String(cString: $0) } ?? "")
    }

    final func processingInstruction(target: UnsafePointer<xmlChar>?, data: UnsafePointer<xmlChar>?) {
        guard !state.pointee.stopped, let target else { return }
        flushText()
        handleProcessingInstruction(target: String(cString: target), data: data.map { String(cString: $0) } ?? "")
    }

    final func finish() {
        guard !state.pointee.stopped else { return }
        flushText()
    }

    /// The location libxml2's input is at now, 1-based.
    final func currentLocation() -> FormatError.Location? {
        guard let context, let input = context.pointee.input else { return nil }
        return FormatError.Location(line: Int(input.pointee.line), column: Int(input.pointee.col))
    }
}
