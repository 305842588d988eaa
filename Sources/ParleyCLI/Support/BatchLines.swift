#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Parley
import ParleyJSON

/// One line of a `--batch` run: a JSON object, parsed with Parley's own JSON format and read
/// member by member from its parsed tape (the last of a repeated key wins, as for `Value`'s
/// subscript), so no value is built for the line.
package struct BatchLine {
    private let object: JSONTopLevelObject

    init(object: JSONTopLevelObject) {
        self.object = object
    }

    /// Whether the line has `key` (even as `null`).
    package func has(_ key: StaticString) -> Bool {
        object[key] != nil
    }

    /// The string at `key`, or `nil` when absent or `null`.
    /// - Throws: ``InputError`` when the value is not a string.
    package func string(_ key: StaticString) throws -> String? {
        guard let member = object[key], !member.isNull else { return nil }
        guard let text = member.string else { throw InputError(message: "\(key) must be a string or null") }
        return text
    }

    /// `body` run on the UTF-8 bytes of the string at `key` (no `String` is made), or `nil` when
    /// absent or `null`.
    /// - Throws: ``InputError`` when the value is not a string, or what `body` throws.
    package func withString<R>(_ key: StaticString, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        var result: R?
        switch try object.withStringMember(key, { result = try body($0) }) {
        case .absent, .null: return nil
        case .notString: throw InputError(message: "\(key) must be a string or null")
        case .string: return result
        }
    }

    /// The strings of the array at `key`, or `nil` when absent or `null`.
    /// - Throws: ``InputError`` when the value is not an array of strings.
    package func strings(_ key: StaticString) throws -> [String]? {
        guard let member = object[key], !member.isNull else { return nil }
        guard let strings = member.strings else { throw InputError(message: "\(key) must be an array of strings") }
        return strings
    }
}

/// What a batch builds from a list of strings (a negotiator from offers, a registry from
/// registered types), built once per distinct list: batch lines usually repeat a few lists.
/// Bounded: past 1,024 distinct lists it starts afresh.
struct BatchListCache<Built> {
    private var built: [[String]: Built] = [:]
    /// The list the last line had and what was built from it: consecutive lines usually repeat
    /// it, and comparing is cheaper than hashing.
    private var lastList: [String]?
    private var lastBuilt: Built?

    mutating func value(for list: [String], build: ([String]) throws -> Built) rethrows -> Built {
        if lastList == list, let lastBuilt { return lastBuilt }
        let value: Built
        if let known = built[list] {
            value = known
        } else {
            value = try build(list)
            if built.count >= 1_024 { built.removeAll(keepingCapacity: true) }
            built[list] = value
        }
        lastList = list
        lastBuilt = value
        return value
    }
}

/// The answer lines of the batch modes: JSON objects written member by member as bytes, with
/// no intermediate strings, into one buffer, which goes to standard output 64 KiB at a time
/// (one `write` per 64 KiB rather than one per line).
package struct BatchAnswer: ~Copyable {
    private var output: RecordBuffer<UInt8>
    /// Where the answer being written starts in `output`.
    private var lineStart = 0
    /// Whether the object being written (the answer, or one nested in it) has no member yet.
    private var isObjectEmpty = true

    /// An answer outside a batch (see ``text``).
    package init() {
        output = RecordBuffer(capacity: 256)
        start()
    }

    /// The answers of a batch, each begun with ``start()`` and flushed to standard output as
    /// they fill 64 KiB.
    fileprivate init(batchCapacity: Int) {
        output = RecordBuffer(capacity: batchCapacity)
    }

    /// The object written so far, closed, as text (an answer outside a batch).
    package var text: String {
        String(decoding: UnsafeBufferPointer(rebasing: output.records[lineStart...]), as: UTF8.self) + "}"
    }

    fileprivate mutating func start() {
        lineStart = output.count
        output.append(UInt8(ascii: "{"))
        isObjectEmpty = true
    }

    /// Drops what was written of the answer and starts it again.
    fileprivate mutating func restart() {
        output.truncate(to: lineStart)
        start()
    }

    fileprivate mutating func finish() {
        output.append("}\n")
        if output.count >= 1 << 16 { flush() }
    }

    /// Writes the finished answers to standard output.
    fileprivate mutating func flush() {
        Descriptors.writeAll(UnsafeRawBufferPointer(output.records), to: STDOUT_FILENO)
        output.truncate(to: 0)
        lineStart = 0
    }

    /// Writes `"name` (the key of a member, without its closing quote), after a comma unless
    /// it is the first member of its object; `name` is one of the commands' literal member
    /// names, none of which needs an escape.
    private mutating func key(_ name: StaticString) {
        output.append(isObjectEmpty ? "\"" : ", \"")
        output.append(name)
        isObjectEmpty = false
    }

    /// Writes what goes between the quotes of `text`'s JSON string literal
    /// (``JSONStringLiteral``'s escapes): text without any, the common case, is copied whole,
    /// read in place (a native string's UTF-8 is contiguous; only a bridged one is not).
    private mutating func contents(_ text: String) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            if JSONStringLiteral.needsEscape(utf8) {
                JSONStringLiteral.forEachRunOfContents(of: text) { output.append(contentsOf: $0) }
            } else {
                output.append(contentsOf: utf8)
            }
        }
        if copied == nil { JSONStringLiteral.forEachRunOfContents(of: text) { output.append(contentsOf: $0) } }
    }

    /// Writes `"name": "value"`, or `"name": null` for `nil`.
    package mutating func member(_ name: StaticString, _ value: String?) {
        key(name)
        if let value {
            output.append("\": \"")
            contents(value)
            output.append(UInt8(ascii: "\""))
        } else {
            output.append("\": null")
        }
    }

    /// Writes `json` as it is: JSON text between values, for an answer whose members are always
    /// the same (`MediaTypeCommand`'s), written in a few pieces rather than member by member.
    package mutating func raw(_ json: StaticString) {
        output.append(json)
        isObjectEmpty = false
    }


    /// Writes what goes between the quotes of `text`'s JSON string literal; the quotes are the
    /// caller's (in its `raw(_:)` text).
    package mutating func stringContents(_ text: String) {
        contents(text)
    }

    /// ``stringContents(_:)`` for `token`, RFC 9110 token characters only (a parsed media
    /// type's type, subtype, suffix and parameter names), which never need a JSON escape:
    /// copied whole, with no look for one.
    package mutating func tokenContents(_ token: UnsafeBufferPointer<UInt8>) {
        assert(token.allSatisfy(ByteClass.isToken), "not a token")
        output.append(contentsOf: token)
    }

    /// ``tokenContents(_:)`` for a token given as a string.
    package mutating func tokenContents(_ token: String) {
        var token = token
        token.withUTF8 { tokenContents($0) }
    }
}

/// Runs a `--batch` command: reads standard input in 64 KiB chunks, one JSON object per line
/// (blank lines skipped), and writes one answer line per object through a 64 KiB output buffer.
/// A line that is not a JSON object, or whose answer throws, gets `{"error": "…"}`.
package func forEachBatchLine(_ answer: (BatchLine, inout BatchAnswer) throws -> Void) {
    // One tape's memory for every line (each line's object is gone before the next is read).
    var reader = JSONTopLevelObject.Reader(format: JSONFormat())
    var written = BatchAnswer(batchCapacity: 1 << 17)
    var pending: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// Answers `line` (without its newline) into `written`; a blank line gets no answer.
    /// (`written` and `reader` are parameters, not captures: captured, each access is checked at
    /// run time.)
    func answerLine(_ line: UnsafeRawBufferPointer, into written: inout BatchAnswer,
                    reader: inout JSONTopLevelObject.Reader) {
        var end = line.count
        while end > 0,
              line[end - 1] == UInt8(ascii: "\r") || line[end - 1] == UInt8(ascii: " ")
                || line[end - 1] == UInt8(ascii: "\t") {
            end -= 1
        }
        let line = UnsafeRawBufferPointer(rebasing: line[..<end])
        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return }
        written.start()
        do {
            guard let object = try reader.object(parsing: line) else {
                throw InputError(message: "expected a JSON object per line")
            }
            try answer(BatchLine(object: consume object), &written)
        } catch {
            // What the answer wrote before it threw is dropped.
            written.restart()
            written.member("error", "\(error)")
        }
        written.finish()
    }

    while true {
        let count = Descriptors.readSome(into: &chunk, from: STDIN_FILENO)
        if count <= 0 { break }
        pending.append(contentsOf: chunk[..<count])
        // Every line that ends with a newline is answered; the rest is the start of a line the
        // next read continues. memchr finds each newline a word or more at a time.
        let answered = pending.withUnsafeBytes { bytes in
            var start = 0
            while let newline = memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\n")), bytes.count - start) {
                let end = bytes.baseAddress!.distance(to: UnsafeRawPointer(newline))
                answerLine(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), into: &written, reader: &reader)
                start = end + 1
            }
            return start
        }
        pending.removeFirst(answered)
    }
    pending.withUnsafeBytes { answerLine($0, into: &written, reader: &reader) }
    written.flush()
}
