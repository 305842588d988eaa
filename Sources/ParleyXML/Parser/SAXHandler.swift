internal import CParleyXML
import Parley
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Receives libxml2's SAX2 callbacks for one parse: tracks depth, node count and expansion,
/// coalesces character data, and records the first error. Each event is described by an
/// `XML.EventView` over libxml2's own buffers and goes to `emit(_:)`, which every subclass (the
/// event readers' forwarders, the tree and value builders) overrides.
///
/// There is one path per event: the C callback finds the parse's `State` and runs the static
/// function of the same name here, which checks the limits and calls `emit(_:)` on the handler
/// without retaining it (the parser owner keeps it alive for the whole parse).
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
        /// Nodes delivered so far, against `DecodingLimits/maxNodes`: elements, attributes,
        /// namespace declarations, texts, CDATA sections, comments and processing instructions.
        var nodeCount = 0
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
        /// The handler that owns this state (it outlives the parse): the C callbacks find the
        /// state in the context's `_private`, and the handler here.
        var handler: Unmanaged<SAXHandler>?
        /// Entities referenced before they were declared: only those can close a reference loop.
        var forwardReferencedEntities: Set<String> = []
        /// Entities visited so far checking declarations for reference loops (bounded per document).
        var entityLoopSteps = 0
        /// The name cache: `cacheSize` slots.
        var names: UnsafeMutablePointer<NameSlot>?
        /// Every name the cache made, in order, when a handler keeps them (the tree builder
        /// refers to names by their position here); `nil` otherwise.
        var nameTable: [XML.Name]?
        /// A number for every qualified name the cache made, when a handler asks for them (the
        /// value builder compares element names by it); `nil` otherwise.
        var keyIDs: [String: Int32]?
        /// `DecodingLimits/maxDepth` and `maxNodes`, which the start and end tags check.
        var maxDepth = 0
        var maxNodes = 0
        /// Whether the subclass takes the pending text itself when an element starts or ends (see
        /// `takePendingText(_:)`): there the text counts as a node but is not delivered as an
        /// event. Before a comment, processing instruction or CDATA section, and at the end, it
        /// still is.
        var takesTextAtElements = false
    }

    /// A direct-mapped cache slot: a name converted from libxml2's interned (dictionary) pointers.
    ///
    /// Kept, see Benchmarks/Gate/kept-shortcuts.md.
    struct NameSlot {
        var localName: UnsafeRawPointer?
        var prefix: UnsafeRawPointer?
        var uri: UnsafeRawPointer?
        var name: XML.Name
        /// `name.qualifiedName`, and the same after `@`: the keys of an element's and an
        /// attribute's member in the value mapping, made once per name rather than per node.
        ///
        /// Part of the cache (kept, see Benchmarks/Gate/kept-shortcuts.md): making the keys from `name` for
        /// every node retains and releases its strings (a namespace URI is rarely small enough to
        /// be stored inline) and concatenates.
        var qualifiedName: String
        var attributeKey: String
        /// The name's position in `State.nameTable`, when kept.
        var ordinal = -1
        /// The number of `qualifiedName` in `State.keyIDs`, when kept: equal for equal
        /// qualified names (whatever their namespace), -1 otherwise.
        var keyID: Int32 = -1

        init(localName: UnsafeRawPointer? = nil, prefix: UnsafeRawPointer? = nil, uri: UnsafeRawPointer? = nil,
             name: XML.Name, ordinal: Int = -1) {
            self.localName = localName
            self.prefix = prefix
            self.uri = uri
            self.name = name
            qualifiedName = name.qualifiedName
            attributeKey = "@" + qualifiedName
            self.ordinal = ordinal
        }
    }

    /// The number of name cache slots: 2^9, as the hash in `name` assumes.
    static let cacheSize = 512

    let limits: DecodingLimits
    let state: UnsafeMutablePointer<State>
    private let names: UnsafeMutablePointer<NameSlot>

    /// Creates a handler; `takesTextAtElements` as in `State`.
    init(limits: DecodingLimits, takesTextAtElements: Bool = false) {
        self.limits = limits
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        names = .allocate(capacity: Self.cacheSize)
        names.initialize(repeating: NameSlot(name: XML.Name("")), count: Self.cacheSize)
        state.pointee.handler = Unmanaged.passUnretained(self)
        state.pointee.names = names
        state.pointee.maxDepth = limits.maxDepth
        state.pointee.maxNodes = limits.maxNodes
        state.pointee.takesTextAtElements = takesTextAtElements
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

    /// Receives every event as a view valid only during the call; subclasses override it.
    func emit(_ event: borrowing XML.EventView) {}

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

    /// Counts `count` bytes as delivered; fails the parse and returns `false` once that passes
    /// the expansion bound.
    private static func deliver(_ state: UnsafeMutablePointer<State>, _ count: Int) -> Bool {
        state.pointee.deliveredBytes &+= count
        if state.pointee.deliveredBytes > state.pointee.maxDeliveredBytes {
            state.pointee.handler?.takeUnretainedValue().failExpansion()
            return false
        }
        return true
    }

    /// Adds `count` nodes; fails the parse and returns `false` once that passes `maxNodes`.
    private static func countNodes(_ state: UnsafeMutablePointer<State>, _ count: Int) -> Bool {
        state.pointee.nodeCount &+= count
        if state.pointee.nodeCount > state.pointee.maxNodes {
            state.pointee.handler?.takeUnretainedValue().failNodes()
            return false
        }
        return true
    }

    /// Delivers an event to the handler's `emit(_:)`, without retaining the handler.
    private static func dispatch(_ state: UnsafeMutablePointer<State>, _ event: borrowing XML.EventView) {
        state.pointee.handler?._withUnsafeGuaranteedRef { $0.emit(event) }
    }

    // Failures kept out of line, so the hot callbacks stay small.

    @inline(never)
    fileprivate func failExpansion() {
        fail(FormatError.limitExceeded(format: "xml", limit: "maxExpansionRatio",
                                       maximum: limits.maxExpansionRatio, location: currentLocation()))
    }

    @inline(never)
    fileprivate func failDepth() {
        fail(FormatError.limitExceeded(format: "xml", limit: "maxDepth", maximum: limits.maxDepth,
                                       actual: state.pointee.depth, location: currentLocation()))
    }

    @inline(never)
    fileprivate func failNodes() {
        fail(FormatError.limitExceeded(format: "xml", limit: "maxNodes", maximum: limits.maxNodes,
                                       location: currentLocation()))
    }

    // MARK: Called from the C callbacks

    /// The name for libxml2's interned pointers, from the state's cache when seen before.
    static func name(_ state: UnsafeMutablePointer<State>, _ localName: UnsafePointer<xmlChar>,
                     _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?) -> XML.Name {
        nameSlot(state, localName, prefix, uri).pointee.name
    }

    /// The qualified name (`prefix:local`) for libxml2's interned pointers, from the cache.
    static func qualifiedName(_ state: UnsafeMutablePointer<State>, _ localName: UnsafePointer<xmlChar>,
                              _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?) -> String {
        nameSlot(state, localName, prefix, uri).pointee.qualifiedName
    }

    /// `@` and the qualified name for libxml2's interned pointers, from the cache.
    static func attributeKey(_ state: UnsafeMutablePointer<State>, _ localName: UnsafePointer<xmlChar>,
                             _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?) -> String {
        nameSlot(state, localName, prefix, uri).pointee.attributeKey
    }

    /// The qualified name for libxml2's interned pointers and its number in `State.keyIDs`.
    static func qualifiedNameAndID(
        _ state: UnsafeMutablePointer<State>, _ localName: UnsafePointer<xmlChar>,
        _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?
    ) -> (String, Int32) {
        let slot = nameSlot(state, localName, prefix, uri)
        return (slot.pointee.qualifiedName, slot.pointee.keyID)
    }

    /// The position in `State.nameTable` of the name for libxml2's interned pointers.
    static func nameOrdinal(_ state: UnsafeMutablePointer<State>, _ localName: UnsafePointer<xmlChar>,
                            _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?) -> Int {
        nameSlot(state, localName, prefix, uri).pointee.ordinal
    }

    /// The cache slot holding the name for libxml2's interned pointers, filled if it held another.
    private static func nameSlot(
        _ state: UnsafeMutablePointer<State>, _ localName: UnsafePointer<xmlChar>,
        _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?
    ) -> UnsafeMutablePointer<NameSlot> {
        let key = UnsafeRawPointer(localName)
        // libxml2 packs interned names next to each other: a multiplicative hash of every bit
        // of the address spreads neighbours over the slots (512 = 2^9 slots: the top 9 bits).
        let hash = UInt(bitPattern: Int(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15
        let slot = state.pointee.names! + Int(truncatingIfNeeded: hash &>> (UInt.bitWidth - 9))
        if slot.pointee.localName == key, slot.pointee.prefix == UnsafeRawPointer(prefix),
           slot.pointee.uri == UnsafeRawPointer(uri) {
            return slot
        }
        cacheName(state, slot, localName, prefix, uri)
        return slot
    }

    /// Appends `value` to `table` when the handler keeps one.
    ///
    /// - Returns: The value's position in `table`, or -1 when there is no table.
    private static func keep<Value>(_ value: Value, in table: inout [Value]?) -> Int {
        guard table != nil else { return -1 }
        table!.append(value)
        return table!.count - 1
    }

    @inline(never)
    private static func cacheName(_ state: UnsafeMutablePointer<State>, _ slot: UnsafeMutablePointer<NameSlot>,
                                  _ localName: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?,
                                  _ uri: UnsafePointer<xmlChar>?) {
        let name = XML.Name(String(cString: localName), prefix: prefix.map { String(cString: $0) },
                            namespaceURI: uri.map { String(cString: $0) })
        slot.pointee = NameSlot(localName: UnsafeRawPointer(localName), prefix: UnsafeRawPointer(prefix),
                                uri: UnsafeRawPointer(uri), name: name,
                                ordinal: keep(name, in: &state.pointee.nameTable))
        if state.pointee.keyIDs != nil {
            let next = Int32(truncatingIfNeeded: state.pointee.keyIDs!.count)
            slot.pointee.keyID = state.pointee.keyIDs![slot.pointee.qualifiedName, default: next]
            if slot.pointee.keyID == next { state.pointee.keyIDs![slot.pointee.qualifiedName] = next }
        }
    }

    /// The pending text (character data since the last other event), which a subclass that
    /// `takesTextAtElements` takes when an element starts or ends: valid until libxml2 delivers
    /// character data again, so only during that event.
    static func takePendingText(_ state: UnsafeMutablePointer<State>) -> UnsafeBufferPointer<UInt8> {
        let text = UnsafeBufferPointer(start: UnsafePointer(state.pointee.text), count: state.pointee.textCount)
        state.pointee.textCount = 0
        return text
    }

    /// Ends the pending text before an element starts or ends: delivers it, or only counts it
    /// as a node when the subclass `takesTextAtElements`.
    ///
    /// - Returns: Whether the parse goes on.
    private static func endTextAtElement(_ state: UnsafeMutablePointer<State>) -> Bool {
        guard state.pointee.takesTextAtElements else { return flushText(state) }
        return state.pointee.textCount == 0 || countNodes(state, 1)
    }

    /// What every start tag checks once the text before it is dealt with, whatever the handler:
    /// the depth, the element, its attributes and namespace declarations as nodes, and the
    /// attribute values' bytes as delivered.
    ///
    /// - Returns: Whether the tag is delivered (the parse goes on).
    private static func admitStartElement(_ state: UnsafeMutablePointer<State>, attributeCount: Int32,
                                          attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
                                          namespaceCount: Int32) -> Bool {
        state.pointee.depth += 1
        if state.pointee.depth > state.pointee.maxDepth {
            state.pointee.handler?.takeUnretainedValue().failDepth()
            return false
        }
        // The element, each attribute and each namespace declaration.
        guard countNodes(state, 1 &+ max(Int(attributeCount), 0) &+ max(Int(namespaceCount), 0)) else { return false }
        if attributeCount > 0, let attributes {
            // Values as libxml2 holds them count now; what entity decoding adds counts when read.
            var valueBytes = 0
            for i in 0..<Int(attributeCount) {
                if let start = attributes[5 * i + 3], let end = attributes[5 * i + 4] { valueBytes &+= end - start }
            }
            return deliver(state, valueBytes)
        }
        return true
    }

    /// Delivers the pending text, if any, as one event.
    ///
    /// - Returns: Whether the parse goes on (the text's receiver may have stopped it).
    private static func flushText(_ state: UnsafeMutablePointer<State>) -> Bool {
        let count = state.pointee.textCount
        guard count > 0 else { return true }
        guard countNodes(state, 1) else { return false }
        dispatch(state, XML.EventView(kind: .text, state: state, bytes: state.pointee.text, count: count))
        state.pointee.textCount = 0
        return !state.pointee.stopped
    }

    static func startElement(
        _ state: UnsafeMutablePointer<State>, localName: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?,
        uri: UnsafePointer<xmlChar>?, namespaceCount: Int32, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int32, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard !state.pointee.stopped, let localName, endTextAtElement(state),
              admitStartElement(state, attributeCount: attributeCount, attributes: attributes,
                                namespaceCount: namespaceCount) else { return }
        let attributeCount = attributes == nil ? 0 : max(Int(attributeCount), 0)
        dispatch(state, XML.EventView(kind: .startElement, state: state, first: localName, prefix: prefix, uri: uri,
                                      attributes: UnsafePointer(attributes), attributeCount: attributeCount,
                                      namespaces: UnsafePointer(namespaces),
                                      namespaceCount: max(Int(namespaceCount), 0)))
    }

    /// Calls `body` with an attribute value's bytes: libxml2 leaves entity references (and
    /// `&#38;` for `&amp;`) in place when it does not substitute entities, so a value with `&`
    /// is decoded first, internal entities only, and what decoding adds counts as delivered.
    /// A value whose expansion passes the limit, or read once the parse has stopped, is empty.
    static func withAttributeValue<Result, Failure: Error>(
        _ state: UnsafeMutablePointer<State>, _ start: UnsafePointer<xmlChar>, count: Int,
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let buffer = UnsafeBufferPointer(start: start, count: count)
        guard containsAmpersand(buffer) else { return try body(buffer) }
        guard !state.pointee.stopped else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        guard let context = state.pointee.activeContext ?? state.pointee.context,
              let decoded = xmlStringLenDecodeEntities(context, start, Int32(count), XML_SUBSTITUTE_REF, 0, 0, 0) else {
            return try body(buffer)
        }
        defer { free(decoded) }
        let decodedCount = strlen(decoded)
        state.pointee.deliveredBytes &+= decodedCount - count
        if state.pointee.deliveredBytes > state.pointee.maxDeliveredBytes {
            state.pointee.handler?.takeUnretainedValue().failExpansion()
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeBufferPointer(start: decoded, count: decodedCount))
    }

    /// Whether `bytes` holds `&`: most attribute values are short, and a loop over a few bytes
    /// costs less time than a call to `memchr`, which takes the longer ones.
    private static func containsAmpersand(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count <= 16 else {
            return memchr(bytes.baseAddress!, Int32(UInt8(ascii: "&")), bytes.count) != nil
        }
        for byte in bytes where byte == UInt8(ascii: "&") { return true }
        return false
    }

    static func endElement(_ state: UnsafeMutablePointer<State>, localName: UnsafePointer<xmlChar>?,
                           prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?) {
        guard !state.pointee.stopped, let localName, endTextAtElement(state) else { return }
        state.pointee.depth -= 1
        dispatch(state, XML.EventView(kind: .endElement, state: state, first: localName, prefix: prefix, uri: uri))
    }

    /// Appends character data to the pending text; the one callback that needs only the state.
    static func characters(_ state: UnsafeMutablePointer<State>, _ context: xmlParserCtxtPtr,
                           _ bytes: UnsafePointer<xmlChar>?, count: Int32) {
        let count = Int(count)
        guard !state.pointee.stopped, let bytes, count > 0 else { return }
        state.pointee.deliveredBytes &+= count
        if state.pointee.deliveredBytes > state.pointee.maxDeliveredBytes { return failExpansion(state, context) }
        let needed = state.pointee.textCount &+ count
        if needed > state.pointee.textCapacity { growText(state, to: needed) }
        (state.pointee.text! + state.pointee.textCount).update(from: bytes, count: count)
        state.pointee.textCount = needed
    }

    @inline(never)
    private static func failExpansion(_ state: UnsafeMutablePointer<State>, _ context: xmlParserCtxtPtr) {
        state.pointee.activeContext = context
        state.pointee.handler?.takeUnretainedValue().failExpansion()
    }

    @inline(never)
    static func growText(_ state: UnsafeMutablePointer<State>, to needed: Int) {
        let capacity = max(needed, 2 * state.pointee.textCapacity, 256)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        if let old = state.pointee.text {
            grown.update(from: old, count: state.pointee.textCount)
            old.deallocate()
        }
        state.pointee.text = grown
        state.pointee.textCapacity = capacity
    }

    static func cdata(_ state: UnsafeMutablePointer<State>, _ bytes: UnsafePointer<xmlChar>?, count: Int32) {
        guard !state.pointee.stopped, let bytes, count >= 0, deliver(state, Int(count)) else { return }
        guard flushText(state), countNodes(state, 1) else { return }
        dispatch(state, XML.EventView(kind: .cdata, state: state, bytes: bytes, count: Int(count)))
    }

    static func comment(_ state: UnsafeMutablePointer<State>, _ value: UnsafePointer<xmlChar>?) {
        guard !state.pointee.stopped else { return }
        guard flushText(state), countNodes(state, 1) else { return }
        dispatch(state, XML.EventView(kind: .comment, state: state, bytes: value,
                                      count: value.map { strlen($0) } ?? 0))
    }

    static func processingInstruction(_ state: UnsafeMutablePointer<State>, target: UnsafePointer<xmlChar>?,
                                      data: UnsafePointer<xmlChar>?) {
        guard !state.pointee.stopped, let target else { return }
        guard flushText(state), countNodes(state, 1) else { return }
        dispatch(state, XML.EventView(kind: .processingInstruction, state: state, first: target, bytes: data,
                                      count: data.map { strlen($0) } ?? 0))
    }

    /// Delivers the text left at the end of the document.
    final func finish() {
        guard !state.pointee.stopped else { return }
        _ = Self.flushText(state)
    }

    /// The location libxml2's input is at now, 1-based.
    final func currentLocation() -> FormatError.Location? {
        guard let context, let input = context.pointee.input else { return nil }
        return FormatError.Location(line: Int(input.pointee.line), column: Int(input.pointee.col))
    }
}
