import Parley

// MARK: Writing from a parsed document

extension YAMLWriter {
    /// A container open while an object is written from its document's tape.
    struct TapeFrame {
        let isMapping: Bool
        /// Whether the first entry continues the current line (after `- `).
        let continuesLine: Bool
        /// Whether this mapping's keys are kept in a set (the last of ``YAMLWriter/tapeKeySets``),
        /// not in ``YAMLWriter/tapeKeys``.
        let hasKeySet: Bool
        /// Whether every key of this mapping so far equals the key at its place in its depth's
        /// template (``YAMLWriter/keyTemplates``). Its keys are then the template's first keys,
        /// so distinct, and the next key that equals the template's next is distinct from them too.
        var followsKeyTemplate: Bool
        let indent: Int
        let count: Int
        /// The entries started so far.
        var index = 0
        /// Where this mapping's keys start in ``YAMLWriter/tapeKeys``.
        let firstKey: Int
    }

    /// Writes the object at entry `object` of `tape` (an object with members) in block style, as
    /// its members built as values would be written, the container frames kept in locals.
    /// The tape's memory must live until it returns.
    mutating func writeTape(_ tape: ValueTape, object: UInt32, indent: Int, continuesLine: Bool) throws(FormatError) {
        // Room for the document and a quarter more: block style indents what a JSON text writes
        // on one line.
        output.reserveCapacity(output.count + tape.documentByteCount + tape.documentByteCount / 4)
        // The frames around the innermost one, outermost first; the innermost's depth is their count.
        var outer: [TapeFrame] = []
        outer.reserveCapacity(8)
        let root = tape.entries[Int(object)]
        var frame = openFrame(isMapping: true, count: Int(root.length), indent: indent,
                              continuesLine: continuesLine, depth: 0)
        var index = Int(object) &+ 1
        while true {
            if !(frame.continuesLine && frame.index == 0) { writeIndent(frame.indent) }
            frame.index &+= 1
            if frame.isMapping {
                try writeTapeKey(tape.entries[index], of: tape, in: &frame, depth: outer.count)
                index &+= 1
            } else {
                append("- ")
            }
            let entry = tape.entries[index]
            index &+= 1
            if (entry.kind == .object || entry.kind == .array) && entry.length > 0 {
                if frame.isMapping { output.append(UInt8(ascii: "\n")) }
                let inner = openFrame(isMapping: entry.kind == .object, count: Int(entry.length),
                                      indent: frame.indent &+ 2, continuesLine: !frame.isMapping,
                                      depth: outer.count &+ 1)
                outer.append(frame)
                frame = inner
                continue
            }
            if frame.isMapping { output.append(UInt8(ascii: " ")) }
            try writeTapeScalar(entry, of: tape)
            output.append(UInt8(ascii: "\n"))
            // A value is complete: close the containers it completes.
            while frame.index == frame.count {
                closeFrame(frame, depth: outer.count)
                guard let next = outer.popLast() else { return }
                frame = next
            }
        }
    }

    /// A scalar or empty container entry, as ``appendInline(_:inFlow:)`` writes its value.
    /// Mutating, as ``appendTemplateKey(_:at:depth:)``: a method's call copied the whole writer.
    private mutating func writeTapeScalar(_ entry: ValueTapeEntry, of tape: ValueTape) throws(FormatError) {
        switch entry.kind {
        case .null: append("null")
        case .falseValue: append("false")
        case .trueValue: append("true")
        case .integer: output.append(decimal: Int64(bitPattern: entry.payload))
        case .float: FloatText.append(Double(bitPattern: entry.payload), to: output)
        case .numberText: try appendNumberText(tape.strings[Int(truncatingIfNeeded: entry.payload)])
        case .plainString:
            ScalarText.appendString(UnsafeBufferPointer(start: tape.bytes + Int(truncatingIfNeeded: entry.payload),
                                                        count: Int(entry.length)), inFlow: false, to: output)
        case .decodedString:
            ScalarText.appendString(tape.strings[Int(truncatingIfNeeded: entry.payload)], inFlow: false, to: output)
        case .array: append("[]")
        case .object: append("{}")
        }
    }

    /// The frame of a container with entries, at `depth` (the frames around it).
    private mutating func openFrame(isMapping: Bool, count: Int, indent: Int, continuesLine: Bool,
                                    depth: Int) -> TapeFrame {
        let hasKeySet = isMapping && count > 16
        if hasKeySet { tapeKeySets.append(Set(minimumCapacity: count)) }
        return TapeFrame(isMapping: isMapping, continuesLine: continuesLine, hasKeySet: hasKeySet,
                         followsKeyTemplate: isMapping && !hasKeySet && depth < keyTemplates.count,
                         indent: indent, count: count, firstKey: tapeKeys.count)
    }

    /// Closes the frame at `depth`: a mapping's keys become its depth's template.
    private mutating func closeFrame(_ frame: TapeFrame, depth: Int) {
        if frame.hasKeySet {
            tapeKeySets.removeLast()
            return
        }
        guard frame.isMapping else { return }
        while keyTemplates.count <= depth { keyTemplates.append([]) }
        if frame.followsKeyTemplate {
            // Its keys were the template's first ones: the template keeps those.
            keyTemplates[depth].removeLast(keyTemplates[depth].count - frame.index)
        } else {
            keyTemplates[depth].replaceSubrange(keyTemplates[depth].indices, with: tapeKeys[frame.firstKey...])
            tapeKeys.removeLast(tapeKeys.count - frame.firstKey)
        }
    }

    /// Writes the key entry `entry` of the mapping `frame` at `depth`, and its `:`.
    private mutating func writeTapeKey(_ entry: ValueTapeEntry, of tape: ValueTape, in frame: inout TapeFrame,
                                       depth: Int) throws(FormatError) {
        guard entry.kind == .plainString else {
            var text = tape.strings[Int(truncatingIfNeeded: entry.payload)]
            try text.withUTF8Bytes { (utf8) throws(FormatError) in
                if !(frame.followsKeyTemplate && appendTemplateKey(utf8, at: frame.index &- 1, depth: depth)) {
                    try writeCheckedKey(utf8, in: &frame, depth: depth)
                }
            }
            return
        }
        let key = UnsafeBufferPointer(start: tape.bytes + Int(truncatingIfNeeded: entry.payload),
                                      count: Int(entry.length))
        if !(frame.followsKeyTemplate && appendTemplateKey(key, at: frame.index &- 1, depth: depth)) {
            try writeCheckedKey(key, in: &frame, depth: depth)
        }
    }

    /// Appends `utf8` and its `:` when it is the key at `index` in the template of its depth, for a
    /// mapping that follows it (so distinct from the mapping's earlier keys, and written as it was
    /// there); returns whether it did.
    /// Mutating, though it changes no property: a method's call copied the whole writer.
    private mutating func appendTemplateKey(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int, depth: Int) -> Bool {
        guard Self.isTemplateKey(utf8, at: index, of: keyTemplates[depth], in: output) else { return false }
        output.append(contentsOf: utf8)
        output.append(UInt8(ascii: ":"))
        return true
    }

    /// Writes a key that is not its template's (or has none): checked against the mapping's
    /// earlier keys, turned explicit when long, and kept for the checks of the keys after it.
    private mutating func writeCheckedKey(_ utf8: UnsafeBufferPointer<UInt8>, in frame: inout TapeFrame,
                                          depth: Int) throws(FormatError) {
        if frame.followsKeyTemplate {
            frame.followsKeyTemplate = false
            // The keys before this one are the template's: compared there from now on.
            tapeKeys.append(contentsOf: keyTemplates[depth][..<(frame.index &- 1)])
        }
        let keyStart = output.count
        ScalarText.appendString(utf8, inFlow: false, to: output)
        var written = keyStart..<output.count
        if frame.hasKeySet {
            guard tapeKeySets[tapeKeySets.count - 1].insert(String(decoding: utf8, as: UTF8.self)).inserted else {
                throw repeatedKey(String(decoding: utf8, as: UTF8.self))
            }
        } else if Self.isWrittenKeyRepeated(written, among: tapeKeys[frame.firstKey...], in: output) {
            throw repeatedKey(String(decoding: utf8, as: UTF8.self))
        }
        // As ``writeKey(_:indent:)``: a long key is turned explicit once written.
        if written.count > Self.maxImplicitKeyBytes {
            output.insert("? ", at: keyStart)
            output.append(UInt8(ascii: "\n"))
            writeIndent(frame.indent)
            written = (written.lowerBound + 2)..<(written.upperBound + 2)
        }
        if !frame.hasKeySet { tapeKeys.append(written) }
        output.append(UInt8(ascii: ":"))
    }

    /// Whether `utf8` is the key at `index` of `template` (in `output`), and that key was written
    /// plain: as `utf8` itself. (A key is written plain or double-quoted, and no plain key starts
    /// with `"`; one turned explicit is longer than any written plain here.) Static, as
    /// ``isWrittenKeyRepeated(_:among:in:)``.
    private static func isTemplateKey(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int, of template: [Range<Int>],
                                      in output: ByteOutput) -> Bool {
        guard index < template.count else { return false }
        let written = output.bytes(in: template[index])
        guard let first = written.first, first != UInt8(ascii: "\""), written.count <= maxImplicitKeyBytes else {
            return false
        }
        return RawBytes.areEqual(written, utf8)
    }

    /// Whether the key text at `written` in `output` equals a key written at one of `keys` (the
    /// written form is one to one with the key). Static: a method's call copied the whole writer.
    private static func isWrittenKeyRepeated(_ written: Range<Int>, among keys: ArraySlice<Range<Int>>,
                                             in output: ByteOutput) -> Bool {
        let text = output.bytes(in: written)
        for key in keys where key.count == written.count {
            if RawBytes.areEqual(output.bytes(in: key), text) { return true }
        }
        return false
    }
}
