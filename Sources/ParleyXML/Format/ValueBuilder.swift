import Parley

/// Maps SAX events to a `Value` by the documented mapping (see `ValueMapping.md`), with an
/// explicit stack of open elements (no recursion).
///
/// It reads the event views directly: attribute values and text become strings once, straight
/// from the parser's buffers (the text that ends at a tag from the handler's pending text, with
/// no text event: `takesTextAtElements`), and whitespace between child elements (indentation) is dropped
/// before it is ever made a string. The members of all open elements share one stack, so each
/// object's members move once, into an array of their exact size, when it ends.
final class ValueBuilder: SAXHandler {
    /// An open element: plain numbers, so pushing and popping one costs no reference counting.
    struct Frame {
        /// Where the element's members start in `Stack.members`.
        var memberStart: Int
        /// The members that come from attributes and namespace declarations, before the children.
        var attributeCount: Int
        var hasChildElements = false
        /// Whether `Stack.mixedText` holds text for this element.
        var hasMixedText = false
        /// Whether `Stack.memberIndexes` holds an index of this element's members.
        var hasMemberIndex = false
    }

    /// The open elements, their members and the text of the innermost one since it started or
    /// since its last child element: behind a pointer so appending pays no dynamic exclusivity
    /// check.
    struct Stack: ~Copyable {
        var frames = RecordBuffer<Frame>(capacity: 16)
        /// The members of the open elements, each element's after its parent's.
        var members = MemberStack()
        /// Character data and CDATA in UTF-8, joined (comments between them do not split it):
        /// what came as events before the handler's pending text, which is read where it is when
        /// an element starts or ends (most text never comes here).
        var segment = RecordBuffer<UInt8>(capacity: 256)
        /// By depth (position in `frames`): the segments of mixed content that are not only
        /// whitespace, joined.
        var mixedText: [Int: String] = [:]
        /// By depth: where each child element name's member is, by the name's number (from the element's
        /// `memberStart`), once it has more than `linearSearchLimit` members (below that a scan
        /// of them is cheaper).
        var memberIndexes: [Int: [Int32: Int]] = [:]
        /// The document's value, once the root element ends.
        var result: Value?
    }

    private let stack: UnsafeMutablePointer<Stack>
    var result: Value? { stack.pointee.result }

    init(limits: DecodingLimits) {
        stack = .allocate(capacity: 1)
        stack.initialize(to: Stack())
        super.init(limits: limits, takesTextAtElements: true)
        state.pointee.keyIDs = [:]
    }

    deinit {
        stack.deinitialize(count: 1)
        stack.deallocate()
    }

    override func emit(_ event: borrowing XML.EventView) {
        switch event.kind {
        case .startElement: Self.startElement(state, stack, event)
        case .endElement: Self.endElement(state, stack, event)
        case .text, .cdata:
            // Outside the root only whitespace can occur; it is not kept.
            guard stack.pointee.frames.count > 0 else { return }
            event.withUTF8 { stack.pointee.segment.append(contentsOf: $0) }
        case .comment, .processingInstruction:
            break
        }
    }

    static func startElement(_ state: UnsafeMutablePointer<State>, _ stack: UnsafeMutablePointer<Stack>,
                             _ event: borrowing XML.EventView) {
        // Text before the root is only whitespace, which is not kept.
        let text = takePendingText(state)
        if stack.pointee.frames.count > 0 { stack.pointee.endSegmentBeforeChild(adding: text) }
        let memberStart = stack.pointee.members.count
        for index in 0..<event.namespaces.count {
            let namespace = event.namespaces[index]
            stack.pointee.members.append(.init(key: "@" + namespace.attributeName, value: .string(namespace.uri)))
        }
        event.attributes.forEach { attribute in
            stack.pointee.members.append(.init(key: attribute.memberKey, value: .string(attribute.value)))
        }
        // Reading the values may have stopped the parse (maxExpansionRatio).
        guard !state.pointee.stopped else { return }
        stack.pointee.frames.append(Frame(memberStart: memberStart,
                                          attributeCount: stack.pointee.members.count - memberStart))
    }

    static func endElement(_ state: UnsafeMutablePointer<State>, _ stack: UnsafeMutablePointer<Stack>,
                           _ event: borrowing XML.EventView) {
        let pending = takePendingText(state)
        guard stack.pointee.frames.count > 0 else { return }
        let depth = stack.pointee.frames.count - 1
        let text: String
        if stack.pointee.frames[depth].hasChildElements {
            stack.pointee.endSegment(adding: pending)
            text = stack.pointee.frames[depth].hasMixedText ? stack.pointee.mixedText.removeValue(forKey: depth)! : ""
        } else if stack.pointee.segment.count == 0 {
            // The whole text came in one piece: it becomes the string without a copy in between.
            text = String(utf8: pending)
        } else {
            stack.pointee.segment.append(contentsOf: pending)
            text = String(utf8: stack.pointee.segment.records)
            stack.pointee.segment.truncate(to: 0)
        }
        let frame = stack.pointee.frames[depth]
        stack.pointee.frames.truncate(to: depth)
        if frame.hasMemberIndex { stack.pointee.memberIndexes[depth] = nil }
        let value: Value
        if frame.attributeCount == 0 && !frame.hasChildElements {
            value = .string(consume text)
        } else {
            if !text.isEmpty { stack.pointee.members.append(.init(key: "#text", value: .string(consume text))) }
            value = .object(Value.Object(stack.pointee.members.take(from: frame.memberStart)))
        }
        let (name, id) = event.qualifiedNameAndID
        if depth == 0 {
            stack.pointee.result = .object(Value.Object([.init(key: name, value: value)]))
        } else {
            stack.pointee.add(child: name, id: id, value: value)
        }
    }
}

extension ValueBuilder.Stack {
    /// Members up to which a child's name is looked up by scanning them.
    static let linearSearchLimit = 16

    /// Ends the innermost element's text segment, the handler's pending text `pending` last,
    /// as a child element starts in it.
    mutating func endSegmentBeforeChild(adding pending: UnsafeBufferPointer<UInt8>) {
        frames[frames.count - 1].hasChildElements = true
        endSegment(adding: pending)
    }

    /// Ends the innermost element's text segment (the text between two of its child elements,
    /// or before the first, or after the last), the handler's pending text `pending` last: adds
    /// it to the element's mixed text unless it is only whitespace (indentation).
    mutating func endSegment(adding pending: UnsafeBufferPointer<UInt8>) {
        guard segment.count > 0 else {
            // The segment is the pending text alone: judged and made where it is.
            if pending.count > 0 && !isWhitespace(pending) { addMixedText(String(utf8: pending)) }
            return
        }
        segment.append(contentsOf: pending)
        if !isWhitespace(segment.records) { addMixedText(String(utf8: segment.records)) }
        segment.truncate(to: 0)
    }

    /// Adds a segment of mixed content to the innermost element's text.
    private mutating func addMixedText(_ text: String) {
        let depth = frames.count - 1
        frames[depth].hasMixedText = true
        mixedText[depth, default: ""] += text
    }

    /// Adds a child element's value to the innermost element: as a member, or to the array
    /// of the member that holds the children of the same name.
    mutating func add(child name: consuming String, id: Int32, value: consuming Value) {
        let depth = frames.count - 1
        let frame = frames[depth]
        // Where the children with this name are, if one came before: looked up in the index, or
        // found by scanning the element's child members.
        let position = frame.hasMemberIndex
            ? memberIndexes[depth]![id].map { frame.memberStart + $0 }
            : members.lastPosition(of: id, from: frame.memberStart + frame.attributeCount)
        if let position {
            members.group(value, into: position)
            return
        }
        members.append(.init(key: name, value: value), id: id)
        if frame.hasMemberIndex {
            memberIndexes[depth]![id] = members.count - 1 - frame.memberStart
        } else if members.count - frame.memberStart > Self.linearSearchLimit {
            // Keys are unique: a child element's name cannot start with `@`, as attributes' do.
            var index: [Int32: Int] = [:]
            for position in frame.memberStart + frame.attributeCount..<members.count {
                index[members.id(at: position)] = position - frame.memberStart
            }
            memberIndexes[depth] = index
            frames[depth].hasMemberIndex = true
        }
    }

}

/// Whether UTF-8 text holds only whitespace characters (`Character.isWhitespace`): ASCII is
/// checked byte by byte, text with other characters as characters.
private func isWhitespace(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    while index < utf8.count {
        let byte = utf8[index]
        // Tab, line feed, vertical tab, form feed, carriage return, space.
        if byte == 0x20 || byte &- 0x09 <= 4 {
            index &+= 1
        } else if byte < 0x80 {
            return false
        } else {
            return String(decoding: utf8, as: UTF8.self).allSatisfy(\.isWhitespace)
        }
    }
    return true
}

/// The members of the open elements, on one stack: each element's members move, once, from
/// here into an array of their exact count when it ends.
struct MemberStack: ~Copyable {
    private var members = Value.ChildStack<Value.Object.Member>()
    /// For each member, the number of its child element name (`SAXHandler.State.keyIDs`), or -1
    /// for attributes, namespace declarations and text: names compare as numbers.
    private var ids = RecordBuffer<Int32>(capacity: 64)

    var count: Int { members.count }

    /// Appends `member`, a child element's when `id` is its name's number (-1 for others).
    mutating func append(_ member: consuming Value.Object.Member, id: Int32 = -1) {
        members.append(member)
        ids.append(id)
    }

    /// The number of the child element name of the member at `index` (`0..<count`), or -1.
    func id(at index: Int) -> Int32 {
        ids[index]
    }

    /// The position of the last member from `start` on whose child element name has the number
    /// `id`, if any.
    func lastPosition(of id: Int32, from start: Int) -> Int? {
        var position = ids.count
        while position > start {
            position -= 1
            if ids[position] == id { return position }
        }
        return nil
    }

    /// Adds `value` to the member at `index` (`0..<count`), the first child of its name: its
    /// value becomes an array of both, or takes `value` at the end of the array it already is.
    mutating func group(_ value: consuming Value, into index: Int) {
        if case .array(var values) = members[index].value {
            // Left as `.null` while `values` grows, so the array is not shared and grows in place.
            members[index].value = .null
            values.append(value)
            members[index].value = .array(values)
        } else {
            members[index].value = .array([members[index].value, value])
        }
    }

    /// Moves the members from `start` on into an array of exactly their count.
    mutating func take(from start: Int) -> [Value.Object.Member] {
        ids.truncate(to: start)
        return members.removeTail(from: start)
    }
}
