internal import CParleyXML
import Parley

/// Receives libxml2's SAX2 callbacks for one parse: tracks depth, node count and expansion,
/// coalesces character data, and records the first error. Subclasses build events, trees or
/// values by overriding the `handle…` methods.
///
/// Callbacks never throw: a subclass stores its failure with ``fail(_:)``, which stops the
/// parser; ``SAXParser`` throws it once libxml2 returns.
class SAXHandler {
    let limits: DecodingLimits
    /// Bytes of text and attribute values delivered so far (entity expansion included).
    private var deliveredBytes = 0
    /// Bytes delivered past which expansion counts as an attack: 64 KiB + ratio × input.
    private var maxDeliveredBytes = Int.max
    private(set) var depth = 0
    private var elementCount = 0
    /// Pending character data, flushed before every other event.
    private var text: [UInt8] = []
    /// The failure recorded by a callback, thrown after libxml2 returns.
    private(set) var failure: (any Error)?
    /// The document's parser context, to stop it when a callback fails.
    var context: xmlParserCtxtPtr?
    /// The context of the callback in progress: the document's, or a nested one parsing an
    /// entity's replacement text.
    var activeContext: xmlParserCtxtPtr?
    /// Names already converted, keyed by libxml2's interned (dictionary) pointer.
    private var names: [UnsafeRawPointer: String] = [:]
    /// The first fatal error libxml2 reported, with its location.
    var parseError: FormatError?

    init(limits: DecodingLimits) {
        self.limits = limits
    }

    func begin(inputBytes: Int) {
        let (product, overflow) = inputBytes.multipliedReportingOverflow(by: max(limits.maxExpansionRatio, 1))
        maxDeliveredBytes = overflow ? Int.max : product &+ 65_536
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
        if failure == nil { failure = error }
        if let activeContext, activeContext != context { xmlStopParser(activeContext) }
        if let context { xmlStopParser(context) }
    }

    private func deliver(_ count: Int) -> Bool {
        deliveredBytes &+= count
        if deliveredBytes > maxDeliveredBytes {
            fail(FormatError.limitExceeded(format: "xml", limit: "maxExpansionRatio",
                                           maximum: limits.maxExpansionRatio))
            return false
        }
        return true
    }

    // MARK: Called from the C callbacks

    final func name(_ pointer: UnsafePointer<xmlChar>) -> String {
        let key = UnsafeRawPointer(pointer)
        if let cached = names[key] { return cached }
        let string = String(cString: pointer)
        names[key] = string
        return string
    }

    final func optionalName(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        guard let pointer else { return nil }
        return name(pointer)
    }

    final func flushText() {
        guard !text.isEmpty else { return }
        let string = String(decoding: text, as: UTF8.self)
        text.removeAll(keepingCapacity: true)
        handleText(string)
    }

    final func startElement(
        localName: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        namespaceCount: Int32, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int32, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard failure == nil, let localName else { return }
        flushText()
        depth += 1
        elementCount += 1
        if depth > limits.maxDepth {
            return fail(FormatError.limitExceeded(format: "xml", limit: "maxDepth", maximum: limits.maxDepth,
                                                  actual: depth, location: currentLocation()))
        }
        if elementCount > limits.maxNodes {
            return fail(FormatError.limitExceeded(format: "xml", limit: "maxNodes", maximum: limits.maxNodes,
                                                  location: currentLocation()))
        }
        let elementName = XML.Name(name(localName), prefix: optionalName(prefix), namespaceURI: optionalName(uri))
        var declared: [XML.Namespace] = []
        if namespaceCount > 0, let namespaces {
            declared.reserveCapacity(Int(namespaceCount))
            for i in 0..<Int(namespaceCount) {
                let uriString = namespaces[2 * i + 1].map { String(cString: $0) } ?? ""
                declared.append(XML.Namespace(prefix: optionalName(namespaces[2 * i]), uri: uriString))
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
                attributeList.append(XML.Attribute(
                    XML.Name(name(local), prefix: optionalName(attributes[base + 1]),
                             namespaceURI: optionalName(attributes[base + 2])),
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
        guard failure == nil, let localName else { return }
        flushText()
        depth -= 1
        handleEndElement(XML.Name(name(localName), prefix: optionalName(prefix), namespaceURI: optionalName(uri)))
    }

    final func characters(_ bytes: UnsafePointer<xmlChar>?, count: Int32) {
        guard failure == nil, let bytes, count > 0, deliver(Int(count)) else { return }
        text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
    }

    final func cdata(_ bytes: UnsafePointer<xmlChar>?, count: Int32) {
        guard failure == nil, let bytes, count >= 0, deliver(Int(count)) else { return }
        flushText()
        handleCDATA(String(decoding: UnsafeBufferPointer(start: bytes, count: Int(count)), as: UTF8.self))
    }

    final func comment(_ value: UnsafePointer<xmlChar>?) {
        guard failure == nil else { return }
        flushText()
        handleComment(value.map { String(cString: $0) } ?? "")
    }

    final func processingInstruction(target: UnsafePointer<xmlChar>?, data: UnsafePointer<xmlChar>?) {
        guard failure == nil, let target else { return }
        flushText()
        handleProcessingInstruction(target: String(cString: target), data: data.map { String(cString: $0) } ?? "")
    }

    final func finish() {
        guard failure == nil else { return }
        flushText()
    }

    /// The location libxml2's input is at now, 1-based.
    final func currentLocation() -> FormatError.Location? {
        guard let context, let input = context.pointee.input else { return nil }
        return FormatError.Location(line: Int(input.pointee.line), column: Int(input.pointee.col))
    }
}
