import Parley

/// Maps SAX events to a `Value` by the documented mapping (see `ValueMapping.md`), with an
/// explicit stack of open elements (no recursion).
///
/// It reads the event views directly: attribute values and text become strings once, straight
/// from the parser's buffers, and whitespace between child elements (indentation) is dropped
/// before it is ever made a string.
final class ValueBuilder: SAXHandler {
    fileprivate struct Frame {
        /// The element's qualified name: its member's key in the parent.
        var name: String
        var members: [Value.Object.Member] = []
        /// Where each child element name's member is, once there are more than
        /// `Frame.linearSearchLimit` members (below that a scan of `members` is cheaper).
        var memberIndex: [String: Int]?
        /// The members that come from attributes and namespace declarations, before the children.
        var attributeCount = 0
        var hasChildElements = false
        /// The segments of mixed content that are not only whitespace, joined.
        var significantText = ""
    }

    /// The open elements and the text of the innermost one since it started or since its last
    /// child element: behind a pointer so appending pays no dynamic exclusivity check.
    fileprivate struct Stack: ~Copyable {
        var frames: [Frame] = []
        /// Character data and CDATA in UTF-8, joined (comments between them do not split it).
        var segment = RecordBuffer<UInt8>(capacity: 256)
    }

    private let stack: UnsafeMutablePointer<Stack>
    private(set) var result: Value?

    init(limits: DecodingLimits) {
        stack = .allocate(capacity: 1)
        stack.initialize(to: Stack())
        super.init(limits: limits)
    }

    deinit {
        stack.deinitialize(count: 1)
        stack.deallocate()
    }

    override func emit(_ event: borrowing XML.EventView) {
        switch event.kind {
        case .startElement: startElement(event)
        case .endElement: endElement()
        case .text, .cdata:
            // Outside the root only whitespace can occur; it is not kept.
            guard !stack.pointee.frames.isEmpty else { return }
            event.withUTF8 { stack.pointee.segment.append(contentsOf: $0) }
        case .comment, .processingInstruction:
            break
        }
    }

    private func startElement(_ event: borrowing XML.EventView) {
        if !stack.pointee.frames.isEmpty {
            let parent = stack.pointee.frames.count - 1
            stack.pointee.frames[parent].hasChildElements = true
            flushSegment(into: parent)
        }
        var frame = Frame(name: event.name.qualifiedName)
        let memberCount = event.namespaces.count + event.attributes.count
        if memberCount > 0 {
            frame.members.reserveCapacity(memberCount)
            for index in 0..<event.namespaces.count {
                let namespace = event.namespaces[index]
                frame.members.append(.init(key: "@" + namespace.attributeName, value: .string(namespace.uri)))
            }
            event.attributes.forEach { attribute in
                frame.members.append(.init(key: "@" + attribute.name.qualifiedName, value: .string(attribute.value)))
            }
            // Reading the values may have stopped the parse (maxExpansionRatio).
            guard !state.pointee.stopped else { return }
            frame.attributeCount = memberCount
        }
        stack.pointee.frames.append(frame)
    }

    private func endElement() {
        guard var frame = stack.pointee.frames.popLast() else { return }
        let text: String
        if frame.hasChildElements {
            frame.appendSegment(stack.pointee.segment.records)
            text = frame.significantText
        } else {
            text = String(decoding: stack.pointee.segment.records, as: UTF8.self)
        }
        stack.pointee.segment.truncate(to: 0)
        let value: Value
        if frame.attributeCount == 0 && !frame.hasChildElements {
            value = .string(text)
        } else {
            if !text.isEmpty { frame.members.append(.init(key: "#text", value: .string(text))) }
            value = .object(Value.Object(frame.members))
        }
        if stack.pointee.frames.isEmpty {
            result = .object(Value.Object([.init(key: frame.name, value: value)]))
        } else {
            stack.pointee.frames[stack.pointee.frames.count - 1].add(child: frame.name, value: value)
        }
    }

    /// Ends the text segment of the frame at `index`, which a child element follows.
    private func flushSegment(into index: Int) {
        guard stack.pointee.segment.count > 0 else { return }
        stack.pointee.frames[index].appendSegment(stack.pointee.segment.records)
        stack.pointee.segment.truncate(to: 0)
    }
}

extension ValueBuilder.Frame {
    /// Members up to which a child's name is looked up by scanning them.
    static let linearSearchLimit = 16

    /// Adds a segment of mixed content (the text between two child elements) to
    /// `significantText`, unless it is only whitespace (indentation).
    mutating func appendSegment(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard !isWhitespace(utf8) else { return }
        significantText += String(decoding: utf8, as: UTF8.self)
    }

    mutating func add(child name: String, value: Value) {
        if let index = memberPosition(forChild: name) {
            if case .array(var values) = members[index].value {
                members[index].value = .null
                values.append(value)
                members[index].value = .array(values)
            } else {
                members[index].value = .array([members[index].value, value])
            }
            return
        }
        members.append(.init(key: name, value: value))
        if memberIndex != nil {
            memberIndex![name] = members.count - 1
        } else if members.count > Self.linearSearchLimit {
            // Keys are unique: a child element's name cannot start with `@`, as attributes' do.
            var index: [String: Int] = [:]
            for (position, member) in members.enumerated() { index[member.key] = position }
            memberIndex = index
        }
    }

    /// The position of the member holding the children named `name`, if one came before.
    private func memberPosition(forChild name: String) -> Int? {
        if let memberIndex { return memberIndex[name] }
        var position = members.count
        while position > attributeCount {
            position -= 1
            if members[position].key == name { return position }
        }
        return nil
    }
}

/// Whether UTF-8 text holds only whitespace characters (`Character.isWhitespace`): ASCII is
/// checked byte by byte, text with other characters as characters.
func isWhitespace(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in utf8 {
        switch byte {
        case 0x09...0x0D, 0x20: continue
        case 0x80...: return String(decoding: utf8, as: UTF8.self).allSatisfy(\.isWhitespace)
        default: return false
        }
    }
    return true
}
