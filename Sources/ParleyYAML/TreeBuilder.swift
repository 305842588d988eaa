internal import CParleyYAML
import Parley

/// Turns libyaml events into one ``Value`` per document with an explicit stack of open
/// collections, enforcing depth, node and alias-expansion limits as it goes.
struct TreeBuilder {
    static let mergeTag = "tag:yaml.org,2002:merge"
    static let intTag = "tag:yaml.org,2002:int"
    static let floatTag = "tag:yaml.org,2002:float"
    static let linearKeyScanLimit = 16

    let options: YAMLFormat
    let limits: DecodingLimits
    let parser: EventParser
    let expansionBudget: Int
    let format: String
    /// The innermost open collection, or the document level (``Frame/documentLevel``) when
    /// none is open. It lives apart from the frames enclosing it, which every event but a
    /// collection's start or end leaves alone, so the events read and set it in place.
    var top = Frame.documentLevel
    /// The frames enclosing ``top``, outermost (the document level) first: one per open
    /// collection, so its count is the nesting depth.
    var enclosing: [Frame] = []
    /// The extras of the open collections that have them (``Frame/hasExtras``), outermost
    /// first. Only the innermost collection gains extras and collections close innermost
    /// first, so the innermost collection's extras, when it has them, are the last.
    var openExtras: [Extras] = []
    /// The members of every open mapping and the elements of every open sequence, outermost
    /// first: a closing collection moves its own run into an array of exactly its size, so
    /// no collection grows by reallocation.
    var memberScratch = Value.ChildStack<Value.Object.Member>()
    var elementScratch = Value.ChildStack<Value>()
    /// Each anchor name's node in `anchored` (the dictionary holds small values, so its spare
    /// slots cost 8 bytes each instead of a whole `Anchored`).
    var anchors: [String: Int] = [:]
    var anchored: [Anchored] = []
    var openAnchors: [String: Int] = [:]
    var documents: [Value] = []
    var documentCount = 0
    var nodes = 0
    var expansion = 0
    /// Nodes and units delivered so far (what each frame counts from its marks): one node and
    /// 1 + its length in units per scalar, one node and unit per collection, an anchored node's
    /// counts per alias.
    var producedNodes = 0
    var producedUnits = 0

    init(options: YAMLFormat, limits: DecodingLimits, inputLength: Int, parser: EventParser) {
        self.options = options
        self.limits = limits
        self.parser = parser
        self.format = options.name
        let (product, overflow) = max(0, limits.maxExpansionRatio).multipliedReportingOverflow(by: inputLength)
        self.expansionBudget =
            overflow ? Int.max : product.addingReportingOverflow(65_536).overflow ? Int.max : product + 65_536
    }

    /// Reads the whole stream and returns the selected document(s).
    mutating func run() throws(FormatError) -> Value {
        let event = parser.event
        while true {
            try parser.next()
            switch event.pointee.type {
            case YAML_SCALAR_EVENT:
                try scalar(event)
            case YAML_SEQUENCE_START_EVENT:
                let data = event.pointee.data.sequence_start
                try open(isMapping: false, anchor: data.anchor, tag: data.tag)
            case YAML_MAPPING_START_EVENT:
                let data = event.pointee.data.mapping_start
                try open(isMapping: true, anchor: data.anchor, tag: data.tag)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                try close()
            case YAML_ALIAS_EVENT:
                try alias(event)
            case YAML_DOCUMENT_END_EVENT:
                documentCount += 1
                anchors.removeAll(keepingCapacity: true)
                anchored.removeAll(keepingCapacity: true)
            case YAML_STREAM_END_EVENT:
                return result()
            default:
                continue
            }
        }
    }

    private func result() -> Value {
        switch options.documents {
        case .first:
            return documents.first ?? .null
        case .all:
            return documents.count == 1 ? documents[0] : documents.isEmpty ? .null : .array(documents)
        }
    }

    // MARK: Events

    private mutating func scalar(_ event: UnsafeMutablePointer<yaml_event_t>) throws(FormatError) {
        let data = event.pointee.data.scalar
        if data.tag != nil || data.anchor != nil { return try decoratedScalar(event) }
        guard countNodes(1) else { throw nodeLimitError() }
        let bytes = UnsafeBufferPointer(start: data.value, count: data.length)
        let isPlain = data.style == YAML_PLAIN_SCALAR_STYLE
        producedNodes += 1
        producedUnits += 1 + bytes.count
        if isExpectingKey {
            try setKey(String(utf8: bytes), isMerge: isPlain && Self.isMergeKey(bytes))
            return
        }
        try deliver(try Self.resolveUntagged(bytes, isPlain: isPlain, options: options, parser: parser))
    }

    /// A scalar with a tag or an anchor (``scalar(_:)`` reads the others).
    private mutating func decoratedScalar(_ event: UnsafeMutablePointer<yaml_event_t>) throws(FormatError) {
        let data = event.pointee.data.scalar
        // An anchor keeps its node in the anchor table too, an entry costing several nodes'
        // memory: it counts as a node of its own.
        guard countNodes(data.anchor == nil ? 1 : 2) else { throw nodeLimitError() }
        let bytes = UnsafeBufferPointer(start: data.value, count: data.length)
        let isPlain = data.style == YAML_PLAIN_SCALAR_STYLE
        let tag = data.tag.map { String(cString: $0) }
        producedNodes += 1
        producedUnits += 1 + bytes.count
        if isExpectingKey {
            let text = String(utf8: bytes)
            if let tag { try checkTag(tag) }
            let isMerge = tag == nil ? isPlain && Self.isMergeKey(bytes) : tag == Self.mergeTag
            if let anchor = data.anchor {
                let value = try Self.resolve(bytes, tag: tag, isPlain: isPlain, options: options, parser: parser)
                define(String(cString: anchor), Anchored(value: value, nodeCount: 1, units: 1 + bytes.count,
                                                         height: 0, keyText: text))
            }
            try setKey(text, isMerge: isMerge)
            return
        }
        let value = try Self.resolve(bytes, tag: tag, isPlain: isPlain, options: options, parser: parser)
        if let anchor = data.anchor {
            define(String(cString: anchor), Anchored(value: value, nodeCount: 1, units: 1 + bytes.count, height: 0,
                                                     keyText: String(utf8: bytes)))
        }
        try deliver(value)
    }

    /// Whether an untagged plain key is the merge key `<<`.
    private static func isMergeKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == 2 && bytes[0] == UInt8(ascii: "<") && bytes[1] == UInt8(ascii: "<")
    }

    private mutating func open(isMapping: Bool, anchor: UnsafeMutablePointer<UInt8>?,
                               tag: UnsafeMutablePointer<UInt8>?) throws(FormatError) {
        if enclosing.count >= limits.maxDepth {
            throw FormatError.limitExceeded(format: format, limit: "maxDepth", maximum: limits.maxDepth,
                                            actual: enclosing.count + 1, location: parser.eventLocation)
        }
        // An anchor counts as a node (see `scalar`).
        guard countNodes(anchor == nil ? 1 : 2) else { throw nodeLimitError() }
        var hasExtras = false
        if anchor != nil || tag != nil { hasExtras = try addExtras(isMapping: isMapping, anchor: anchor, tag: tag) }
        var frame = Frame(isMapping: isMapping, start: isMapping ? memberScratch.count : elementScratch.count,
                          nodeMark: producedNodes, unitMark: producedUnits, hasExtras: hasExtras)
        swap(&frame, &top)  // `top` is the new collection, `frame` the one around it
        enclosing.append(frame)
        producedNodes += 1
        producedUnits += 1
    }

    private mutating func close() throws(FormatError) {
        guard var frame = enclosing.popLast() else { return }
        swap(&frame, &top)  // `frame` is the closing collection, `top` the one around it
        let value: Value
        if frame.hasExtras, let extras = openExtras.popLast() {
            value = finish(frame, with: extras)
        } else if frame.isMapping {
            value = .object(Value.Object(memberScratch.removeTail(from: frame.start)))
        } else {
            value = .array(elementScratch.removeTail(from: frame.start))
        }
        raiseTopHeight(above: frame.height)
        if isExpectingKey {
            try setKey(try keyText(rendering: value), isMerge: false, isComplex: true)
            return
        }
        try deliver(value)
    }

    /// Records the anchor and the kept tag of a collection being opened; whether it has any
    /// (then its ``Extras`` is the last of `openExtras`).
    private mutating func addExtras(isMapping: Bool, anchor: UnsafeMutablePointer<UInt8>?,
                                    tag: UnsafeMutablePointer<UInt8>?) throws(FormatError) -> Bool {
        var wrappingTag: String?
        if let tag {
            let text = String(cString: tag)
            let core = isMapping ? "tag:yaml.org,2002:map" : "tag:yaml.org,2002:seq"
            if text != "!" && text != core {
                if ScalarResolver.isKnownTag(text) {
                    throw FormatError(
                        .malformed, format: format,
                        "tag \(text) cannot be used on a \(isMapping ? "mapping" : "sequence")",
                        location: parser.eventLocation)
                }
                try checkTag(text)
                wrappingTag = text
            }
        }
        let name = anchor.map { String(cString: $0) }
        if let name { openAnchors[name, default: 0] += 1 }
        guard name != nil || wrappingTag != nil else { return false }
        openExtras.append(Extras(anchor: name, wrappingTag: wrappingTag))
        return true
    }

    /// The value of a closing collection that has extras: its merges applied, its tag kept, its
    /// anchor defined.
    private mutating func finish(_ frame: Frame, with extras: Extras) -> Value {
        let anchor = extras.anchor
        if let name = anchor {
            if let count = openAnchors[name], count > 1 {
                openAnchors[name] = count - 1
            } else {
                openAnchors[name] = nil
            }
        }
        var value: Value
        if frame.isMapping {
            var members = memberScratch.removeTail(from: frame.start)
            if !extras.merges.isEmpty { applyMerges(extras.merges, to: &members) }
            value = .object(Value.Object(members))
        } else {
            value = .array(elementScratch.removeTail(from: frame.start))
        }
        if let tag = extras.wrappingTag { value = .tagged(tag, value) }
        if let name = anchor {
            define(name, Anchored(value: value, nodeCount: producedNodes - frame.nodeMark,
                                  units: producedUnits - frame.unitMark, height: frame.height, keyText: nil))
        }
        return value
    }

    private mutating func alias(_ event: UnsafeMutablePointer<yaml_event_t>) throws(FormatError) {
        let name = String(cString: event.pointee.data.alias.anchor)
        if openAnchors[name] != nil {
            throw FormatError(.malformed, format: format, "alias *\(name) refers to a node that contains it (a cycle)",
                              location: parser.eventLocation)
        }
        guard let anchored = anchors[name].map({ self.anchored[$0] }) else {
            throw FormatError(.malformed, format: format, "alias *\(name) has no anchor before it",
                              location: parser.eventLocation)
        }
        try spendExpansion(anchored.units)
        guard countNodes(anchored.nodeCount) else { throw nodeLimitError() }
        if enclosing.count + anchored.height > limits.maxDepth {
            throw FormatError.limitExceeded(format: format, limit: "maxDepth", maximum: limits.maxDepth,
                                            actual: enclosing.count + anchored.height, location: parser.eventLocation)
        }
        producedNodes += anchored.nodeCount
        producedUnits += anchored.units
        raiseTopHeight(above: anchored.height)
        if isExpectingKey {
            if let text = anchored.keyText {
                try setKey(text, isMerge: false)
            } else {
                try setKey(try keyText(rendering: anchored.value), isMerge: false, isComplex: true)
            }
            return
        }
        try deliver(anchored.value)
    }

    // MARK: Building

    /// Records the node an anchor names; a later anchor of the same name replaces it (its
    /// entry stays in `anchored` until the document ends: each anchor counted as a node).
    private mutating func define(_ name: String, _ node: Anchored) {
        anchors[name] = anchored.count
        anchored.append(node)
    }

    /// Whether the innermost open collection is a mapping waiting for a key.
    private var isExpectingKey: Bool {
        top.isMapping && !top.hasPendingKey
    }

    /// The flow-style text of a collection used as a mapping key. The text counts against the
    /// expansion budget: a key nested in a key is quoted again at every level, so a short
    /// document of nested complex keys (`- ? - ? - ? …`) would otherwise render keys that double
    /// in size with each level.
    private mutating func keyText(rendering value: Value) throws(FormatError) -> String {
        let text = FlowText.render(value)
        try spendExpansion(text.utf8.count)
        return text
    }

    /// Adds `units` (nodes or bytes produced beyond the input) to the expansion so far; throws
    /// once it passes the budget.
    private mutating func spendExpansion(_ units: Int) throws(FormatError) {
        expansion += units
        if expansion > expansionBudget {
            throw FormatError.limitExceeded(
                format: format, limit: "maxExpansionRatio", maximum: limits.maxExpansionRatio,
                location: parser.eventLocation)
        }
    }

    /// Adds `count` to the nodes produced; whether they are still within `maxNodes` (the caller
    /// throws ``nodeLimitError()`` otherwise, so this stays small enough to inline).
    private mutating func countNodes(_ count: Int) -> Bool {
        nodes += count
        return nodes <= limits.maxNodes
    }

    /// The error for a document past `maxNodes`, built apart so the count above stays small.
    private func nodeLimitError() -> FormatError {
        FormatError.limitExceeded(format: format, limit: "maxNodes", maximum: limits.maxNodes,
                                  location: parser.eventLocation)
    }

    /// Makes the innermost open collection at least one higher than a child of `height`.
    private mutating func raiseTopHeight(above height: Int) {
        if height + 1 > top.height { top.height = height + 1 }
    }

    /// Hands a finished node to the open collection, or to the document list.
    private mutating func deliver(_ value: consuming Value) throws(FormatError) {
        if !top.isMapping {
            if !enclosing.isEmpty {
                elementScratch.append(value)
            } else if options.documents == .all || documents.isEmpty {
                documents.append(value)
            }
            return
        }
        top.hasPendingKey = false
        if top.pendingKeyIsMerge {
            top.pendingKeyIsMerge = false
            try addMerge(value)
        } else {
            memberScratch[memberScratch.count - 1].value = value
        }
    }

    /// Records the key of the next member, rejecting a repeated scalar key under `.reject`.
    /// Collection keys are not compared: their flow text only approximates node equality.
    ///
    /// The member goes into the scratch with a null value, which ``deliver(_:)`` replaces; a
    /// merge key adds no member.
    private mutating func setKey(_ key: consuming String, isMerge: Bool, isComplex: Bool = false) throws(FormatError) {
        top.hasPendingKey = true
        top.pendingKeyIsMerge = isMerge
        if isMerge { return }
        if !isComplex && options.duplicateKeys == .reject {
            let start = top.start
            let isDuplicate: Bool
            if top.hasExtras, let extras = openExtras.last, extras.keySet != nil {
                isDuplicate = !extras.keySet!.insert(copy key).inserted
            } else if memberScratch.count - start < Self.linearKeyScanLimit {
                // Keys of another length differ: only those of the same length are compared.
                let length = key.utf8.count
                let members = memberScratch.children.span
                var found = false
                for index in start..<members.count where members[index].key.utf8.count == length {
                    if members[index].key == key {
                        found = true
                        break
                    }
                }
                isDuplicate = found
            } else {
                var keys = Set(memberScratch.children[start...].map(\.key))
                isDuplicate = !keys.insert(copy key).inserted
                topExtras().keySet = keys
            }
            if isDuplicate {
                throw FormatError(.malformed, format: format, "duplicate mapping key '\(key.prefix(60))'",
                                  location: parser.eventLocation)
            }
        }
        memberScratch.append(Value.Object.Member(key: key, value: .null))
    }

    private mutating func addMerge(_ value: Value) throws(FormatError) {
        var sources: [Value.Object] = []
        switch value {
        case .object(let object):
            sources = [object]
        case .array(let elements):
            for element in elements {
                guard case .object(let object) = element else {
                    throw FormatError(
                        .malformed, format: format, "a merge key '<<' takes mappings, found a \(element.kindName)",
                        location: parser.eventLocation)
                }
                sources.append(object)
            }
        default:
            throw FormatError(
                .malformed, format: format,
                "a merge key '<<' takes a mapping or a sequence of mappings, found a \(value.kindName)",
                location: parser.eventLocation)
        }
        topExtras().merges.append((position: memberScratch.count - top.start, sources: sources))
    }

    /// The extras of the innermost open collection, created on first use.
    private mutating func topExtras() -> Extras {
        if top.hasExtras, let extras = openExtras.last { return extras }
        let extras = Extras(anchor: nil, wrappingTag: nil)
        openExtras.append(extras)
        top.hasExtras = true
        return extras
    }

    /// Inserts merged members where their `<<` appeared; explicit keys win, then earlier sources.
    private func applyMerges(
        _ merges: [(position: Int, sources: [Value.Object])], to members: inout [Value.Object.Member]
    ) {
        var seen = Set(members.map(\.key))
        var merged: [Value.Object.Member] = []
        merged.reserveCapacity(members.count)
        var cursor = 0
        for merge in merges {
            merged.append(contentsOf: members[cursor..<merge.position])
            cursor = merge.position
            for source in merge.sources {
                for member in source.members where seen.insert(member.key).inserted {
                    merged.append(member)
                }
            }
        }
        merged.append(contentsOf: members[cursor...])
        members = merged
    }

    // MARK: Tags and scalars

    /// Throws ``FormatError/Code/forbidden`` for a tag Parley does not construct, under `.reject`.
    private func checkTag(_ tag: String) throws(FormatError) {
        guard options.unknownTags == .reject, !ScalarResolver.isKnownTag(tag) else { return }
        throw FormatError(.forbidden, format: format, "tag \(tag) is not constructed", location: parser.eventLocation)
    }

    /// The scalar's value. Static, with what it reads passed in: a method would take a copy of
    /// the whole builder for every scalar its mutating caller resolves.
    private static func resolve(_ bytes: UnsafeBufferPointer<UInt8>, tag: String?, isPlain: Bool,
                                options: YAMLFormat, parser: EventParser) throws(FormatError) -> Value {
        guard let tag else { return try resolveUntagged(bytes, isPlain: isPlain, options: options, parser: parser) }
        let format = options.name
        if tag == Self.intTag || tag == Self.floatTag, let digits = ScalarResolver.oversizedRadixDigitCount(bytes) {
            throw radixDigitsError(digits, options: options, parser: parser)
        }
        do {
            if let value = try ScalarResolver.resolveTagged(bytes, tag: tag) { return value }
        } catch {
            throw FormatError(.malformed, format: format, "\(error.message)", location: parser.eventLocation)
        }
        if options.unknownTags == .reject {
            throw FormatError(
                .forbidden, format: format, "tag \(tag) is not constructed", location: parser.eventLocation)
        }
        return .tagged(tag, .string(String(utf8: bytes)))
    }

    /// The value of an untagged scalar: plain ones by the core schema, quoted and block ones as strings.
    private static func resolveUntagged(_ bytes: UnsafeBufferPointer<UInt8>, isPlain: Bool,
                                        options: YAMLFormat, parser: EventParser) throws(FormatError) -> Value {
        guard isPlain else { return .string(String(utf8: bytes)) }
        if let digits = ScalarResolver.oversizedRadixDigitCount(bytes) {
            throw radixDigitsError(digits, options: options, parser: parser)
        }
        return ScalarResolver.resolvePlain(bytes, timestamps: options.resolvesPlainTimestamps)
    }

    /// The error for a `0x`/`0o` integer of `digits` significant digits, more than
    /// ``ScalarResolver/maxRadixDigits``.
    private static func radixDigitsError(_ digits: Int, options: YAMLFormat, parser: EventParser) -> FormatError {
        FormatError.limitExceeded(
            format: options.name, limit: "hexadecimal or octal integer digits",
            maximum: ScalarResolver.maxRadixDigits, actual: digits, location: parser.eventLocation)
    }
}
