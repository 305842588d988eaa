import Parley

/// Maps SAX events to a `Value` by the documented mapping (see `ValueMapping.md`), with an
/// explicit frames.pointee of open elements (no recursion).
final class ValueBuilder: SAXHandler {
    fileprivate struct Frame {
        var name: String
        var members: [Value.Object.Member] = []
        /// Where each child element name's member is, to group repeated names into an array.
        var memberIndex: [String: Int] = [:]
        var text = ""
        var hasAttributes = false
        var hasChildElements = false
        /// Text segments of mixed content that are not only whitespace.
        var significantText: [String] = []
    }

    /// Open elements, behind a pointer so appending pays no dynamic exclusivity check.
    private let frames: UnsafeMutablePointer<[Frame]>
    private(set) var result: Value?

    init(limits: DecodingLimits) {
        frames = .allocate(capacity: 1)
        frames.initialize(to: [])
        super.init(limits: limits)
    }

    deinit {
        frames.deinitialize(count: 1)
        frames.deallocate()
    }

    override func handleStartElement(_ name: XML.Name, attributes: [XML.Attribute], namespaces: [XML.Namespace]) {
        if !frames.pointee.isEmpty {
            frames.pointee[frames.pointee.count - 1].hasChildElements = true
        }
        var frame = Frame(name: name.qualifiedName)
        for namespace in namespaces {
            frame.members.append(.init(key: "@" + namespace.attributeName, value: .string(namespace.uri)))
        }
        for attribute in attributes {
            frame.members.append(.init(key: "@" + attribute.name.qualifiedName, value: .string(attribute.value)))
        }
        frame.hasAttributes = !frame.members.isEmpty
        frames.pointee.append(frame)
    }

    override func handleEndElement(_ name: XML.Name) {
        guard var frame = frames.pointee.popLast() else { return }
        if frame.hasChildElements { frame.flushSegment() }
        let value: Value
        if !frame.hasAttributes && !frame.hasChildElements {
            value = .string(frame.text)
        } else {
            let text = frame.hasChildElements ? frame.significantText.joined() : frame.text
            if !text.isEmpty { frame.members.append(.init(key: "#text", value: .string(text))) }
            value = .object(Value.Object(frame.members))
        }
        if frames.pointee.isEmpty {
            result = .object(Value.Object([.init(key: frame.name, value: value)]))
        } else {
            frames.pointee[frames.pointee.count - 1].add(child: frame.name, value: value)
        }
    }

    override func handleText(_ text: String) {
        guard !frames.pointee.isEmpty else { return }
        frames.pointee[frames.pointee.count - 1].text += text
    }

    override func handleCDATA(_ text: String) {
        handleText(text)
    }
}

extension ValueBuilder.Frame {
    /// Moves the text gathered since the last child element into the mixed-content segments,
    /// unless it is only whitespace (indentation).
    mutating func flushSegment() {
        if !text.isEmpty {
            if text.contains(where: { !$0.isWhitespace }) { significantText.append(text) }
            text = ""
        }
    }

    mutating func add(child name: String, value: Value) {
        flushSegment()
        if let index = memberIndex[name] {
            if case .array(var values) = members[index].value {
                members[index].value = .null
                values.append(value)
                members[index].value = .array(values)
            } else {
                members[index].value = .array([members[index].value, value])
            }
        } else {
            memberIndex[name] = members.count
            members.append(.init(key: name, value: value))
        }
    }
}
