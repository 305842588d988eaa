package import Parley

extension JSONTape {
    /// Writes the object at `object` to `writer` straight from the tape, in the order and with
    /// the parts its members built as values would give: what lets an encoder transcode a JSON
    /// body without building its tree. Containers open are tracked on an explicit stack (never
    /// the machine stack), as deep as the parse allowed.
    package func writeEvents<W: ValueEventWriter>(of object: UInt32, to writer: inout W) throws(FormatError) {
        var open: [OpenContainer] = []
        var index = Int(object)
        while true {
            let entry = entries[index]
            index &+= 1
            switch entry.kind {
            case .null: try writer.writeNull()
            case .falseValue: try writer.writeBool(false)
            case .trueValue: try writer.writeBool(true)
            case .integer: try writer.writeInteger(Int64(bitPattern: entry.payload))
            case .float: try writer.writeFloat(Double(bitPattern: entry.payload))
            case .numberText: try writer.writeNumber(strings[Int(truncatingIfNeeded: entry.payload)])
            case .plainString, .decodedString:
                try withString(entry) { (utf8) throws(FormatError) in try writer.writeString(utf8) }
            case .array, .object:
                let isObject = entry.kind == .object
                let count = Int(entry.length)
                if isObject { try writer.beginObject(count: count) } else { try writer.beginArray(count: count) }
                if count > 0 {
                    open.append(OpenContainer(remaining: count, isObject: isObject))
                    if isObject { index = try writeKey(at: index, to: &writer) }
                    continue
                }
                if isObject { try writer.endObject() } else { try writer.endArray() }
            }
            // A value is complete: close the containers it completes, then the next member's key.
            while let top = open.indices.last {
                open[top].remaining &-= 1
                if open[top].remaining > 0 {
                    if open[top].isObject { index = try writeKey(at: index, to: &writer) }
                    break
                }
                if open.removeLast().isObject { try writer.endObject() } else { try writer.endArray() }
            }
            if open.isEmpty { return }
        }
    }

    /// A container open in ``writeEvents(of:to:)``: the children it has left, and whether it is an object.
    private struct OpenContainer {
        var remaining: Int
        let isObject: Bool
    }

    /// Writes the key entry at `index` and returns the index of the member's value.
    private func writeKey<W: ValueEventWriter>(at index: Int, to writer: inout W) throws(FormatError) -> Int {
        try withString(entries[index]) { (utf8) throws(FormatError) in try writer.writeKey(utf8) }
        return index &+ 1
    }

    /// Calls `body` with the UTF-8 bytes of a string entry.
    private func withString(
        _ entry: Entry, _ body: (UnsafeBufferPointer<UInt8>) throws(FormatError) -> Void
    ) throws(FormatError) {
        if entry.kind == .plainString {
            try body(UnsafeBufferPointer(start: bytes.baseAddress! + Int(truncatingIfNeeded: entry.payload),
                                         count: Int(entry.length)))
            return
        }
        var text = strings[Int(truncatingIfNeeded: entry.payload)]
        try text.withUTF8Bytes(body)
    }
}
