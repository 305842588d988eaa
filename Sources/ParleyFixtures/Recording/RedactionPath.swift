package import Parley

/// A parsed ``RecordingOptions/redactedPaths`` entry, and its application to a value tree.
package struct RedactionPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    package enum Step: Sendable, Hashable {
        /// The member with this key.
        case key(String)
        /// The array element at this position.
        case index(Int)
        /// Every member of an object, or every element of an array.
        case any
    }

    /// Why a path does not parse.
    package struct ParseError: Error {
        package var message: String
    }

    package let steps: [Step]
    package let description: String

    /// Parses `user.password`, `$.items[*].token`, `items[0]`, `*.secret`, `["a.b"]`.
    package init(parsing text: String) throws(ParseError) {
        description = text
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "$") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: ".") { bytes = bytes.dropFirst() }
        }
        var steps: [Step] = []
        var expectsName = true   // at the start or after a dot: a name (or `*`) may follow
        while let byte = bytes.first {
            switch byte {
            case UInt8(ascii: "."):
                guard !expectsName else {
                    throw ParseError(message: "an empty step at byte \(text.utf8.count - bytes.count)")
                }
                bytes = bytes.dropFirst()
                expectsName = true
                guard !bytes.isEmpty else { throw ParseError(message: "the path ends with a dot") }
            case UInt8(ascii: "["):
                bytes = bytes.dropFirst()
                steps.append(try Self.bracket(&bytes, text: text))
                expectsName = false
            default:
                guard expectsName else {
                    throw ParseError(message: "expected \".\" or \"[\" at byte \(text.utf8.count - bytes.count)")
                }
                let name = bytes.prefix {
                    $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "]")
                }
                guard !name.isEmpty else {
                    throw ParseError(message: "unexpected \"]\" at byte \(text.utf8.count - bytes.count)")
                }
                bytes = bytes.dropFirst(name.count)
                let string = String(decoding: name, as: UTF8.self)
                steps.append(string == "*" ? .any : .key(string))
                expectsName = false
            }
        }
        guard !steps.isEmpty else { throw ParseError(message: "the path names nothing") }
        self.steps = steps
    }

    /// `[*]`, `[12]`, `["key"]` or `['key']`, the `[` already read.
    private static func bracket(_ bytes: inout ArraySlice<UInt8>, text: String) throws(ParseError) -> Step {
        let position = text.utf8.count - bytes.count
        guard let first = bytes.first else { throw ParseError(message: "an unclosed \"[\" at byte \(position - 1)") }
        let step: Step
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            bytes = bytes.dropFirst()
            var key: [UInt8] = []
            var closed = false
            while let byte = bytes.popFirst() {
                if byte == UInt8(ascii: "\\"), let escaped = bytes.popFirst() {
                    key.append(escaped)
                } else if byte == first {
                    closed = true
                    break
                } else {
                    key.append(byte)
                }
            }
            guard closed else { throw ParseError(message: "an unterminated quoted key at byte \(position)") }
            step = .key(String(decoding: key, as: UTF8.self))
        } else if first == UInt8(ascii: "*") {
            bytes = bytes.dropFirst()
            step = .any
        } else {
            let digits = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard !digits.isEmpty, digits.count <= 9, let index = Int(String(decoding: digits, as: UTF8.self)) else {
                throw ParseError(message: "expected *, an index or a quoted key after \"[\" at byte \(position)")
            }
            bytes = bytes.dropFirst(digits.count)
            step = .index(index)
        }
        guard bytes.popFirst() == UInt8(ascii: "]") else {
            throw ParseError(message: "expected \"]\" after byte \(position)")
        }
        return step
    }

    /// Replaces every value this path names in `value` with `replacement`; returns how many.
    package func apply(to value: inout Value, replacement: Value) -> Int {
        Self.apply(steps[...], to: &value, replacement: replacement)
    }

    private static func apply(_ steps: ArraySlice<Step>, to value: inout Value, replacement: Value) -> Int {
        guard let step = steps.first else {
            value = replacement
            return 1
        }
        let rest = steps.dropFirst()
        switch value {
        case .tagged(let tag, var inner):
            let count = apply(steps, to: &inner, replacement: replacement)
            if count > 0 { value = .tagged(tag, inner) }
            return count
        case .object(var object):
            var count = 0
            switch step {
            case .key(let key):
                // Every member with the key: a duplicate must not keep the secret.
                guard object.contains(where: { $0.key == key }) else { return 0 }
                var members = object.members
                for index in members.indices where members[index].key == key {
                    count += apply(rest, to: &members[index].value, replacement: replacement)
                }
                object = Value.Object(members)
            case .any:
                var members = object.members
                for index in members.indices {
                    count += apply(rest, to: &members[index].value, replacement: replacement)
                }
                object = Value.Object(members)
            case .index:
                return 0
            }
            if count > 0 { value = .object(object) }
            return count
        case .array(var elements):
            var count = 0
            switch step {
            case .index(let index):
                guard elements.indices.contains(index) else { return 0 }
                count = apply(rest, to: &elements[index], replacement: replacement)
            case .any:
                for index in elements.indices { count += apply(rest, to: &elements[index], replacement: replacement) }
            case .key:
                return 0
            }
            if count > 0 { value = .array(elements) }
            return count
        default:
            return 0
        }
    }
}
