public import Parley

/// The top-level object of a JSON text, read member by member from its parsed form: for callers
/// that read a few members of each of many small documents (JSON Lines, the command-line tool's
/// batch lines), with no `Value` built and strings handed out as their bytes where the caller
/// can take them so.
///
/// A member is found as `Value.Object`'s subscript finds it (the last of a repeated key wins).
/// Nulls are kept whatever ``JSONFormat/Options/removesNullValues`` says.
///
/// ```swift
/// var reader = JSONTopLevelObject.Reader(format: JSONFormat())
/// for line in lines {
///     guard let object = try line.withUnsafeBytes({ try reader.object(parsing: $0) }) else { continue }
///     print(object["name"]?.string ?? "-")
/// }
/// ```
public struct JSONTopLevelObject {
    private let tape: JSONTape

    /// Parses `bytes` as ``JSONFormat/decode(_:context:)`` does for the format's first decodable
    /// type (`application/json`, so UTF-8 unless a byte-order mark or the zero-byte pattern of
    /// UTF-16/32 says otherwise), by the same rules, limits and errors.
    ///
    /// - Returns: `nil` when the top-level value is not an object, or when the text is blank and
    ///   `JSONFormat/Options/blankBody` gives it a value.
    /// - Throws: `FormatError`, as ``JSONFormat/decode(_:context:)`` does.
    public init?(parsing bytes: UnsafeRawBufferPointer, with format: JSONFormat,
                  limits: DecodingLimits? = nil) throws(FormatError) {
        var tape: JSONTape?
        guard let object = try Self.parse(bytes, options: format.options, limits: limits ?? format.defaultLimits,
                                          into: &tape) else {
            return nil
        }
        self = object
    }

    private init(tape: JSONTape) {
        self.tape = tape
    }

    /// Parses `bytes` as ``init(parsing:with:limits:)`` does, into `tape`'s memory when nothing
    /// else refers to that tape (an object or member kept from it would see its bytes change),
    /// else into a new tape, sized after it and left in `tape`.
    private static func parse(_ bytes: UnsafeRawBufferPointer, options: JSONFormat.Options, limits: DecodingLimits,
                              into tape: inout JSONTape?) throws(FormatError) -> JSONTopLevelObject? {
        if isKnownUniquelyReferenced(&tape), let reused = tape {
            // The common case, with no reference to the tape taken but the one the object gets.
            let outcome = try JSONFormat.withUTF8Text(bytes, mediaType: JSONFormat.applicationJSON, limits: limits) {
                (text, offsetBase) throws(FormatError) in
                try reused.reparse(text, options: options, limits: limits, offsetBase: offsetBase)
            }
            switch outcome {
            case .parsed:
                guard reused.entries[0].kind == .object else { return nil }
                return JSONTopLevelObject(tape: consume reused)
            case .blank: return nil
            case .doesNotFit: break
            }
        }
        let document = try JSONFormat.withUTF8Text(bytes, mediaType: JSONFormat.applicationJSON, limits: limits) {
            (text, offsetBase) throws(FormatError) in
            try JSONTape.parse(text, options: options, limits: limits, offsetBase: offsetBase, sizedAfter: tape)
        }
        guard case .tape(let parsed) = document else { return nil }
        tape = parsed
        guard parsed.entries[0].kind == .object else { return nil }
        return JSONTopLevelObject(tape: parsed)
    }

    /// Parses one document after another, as ``JSONTopLevelObject/init(parsing:with:limits:)``
    /// does (the same parser, rules, limits and errors), reusing one tape's memory: for many
    /// small documents, such as the command-line tool's batch lines, nothing is allocated per
    /// document once the memory is large enough for the longest.
    ///
    /// The memory is reused only when the object the last call returned (and every member read
    /// from it) is gone; while one is kept, the next document gets memory of its own.
    public struct Reader {
        private let options: JSONFormat.Options
        private let limits: DecodingLimits
        /// The tape of the last document.
        private var tape: JSONTape?

        /// A reader of documents in `format`, within `limits` (the format's default limits when
        /// `nil`).
        public init(format: JSONFormat, limits: DecodingLimits? = nil) {
            options = format.options
            self.limits = limits ?? format.defaultLimits
        }

        /// The top-level object of `bytes`, as ``JSONTopLevelObject/init(parsing:with:limits:)``
        /// returns it.
        /// - Throws: `FormatError`, as ``JSONTopLevelObject/init(parsing:with:limits:)`` does.
        public mutating func object(parsing bytes: UnsafeRawBufferPointer) throws(FormatError) -> JSONTopLevelObject? {
            try JSONTopLevelObject.parse(bytes, options: options, limits: limits, into: &tape)
        }
    }

    /// The value of the member named `key`, or `nil` when there is none.
    public subscript(key: String) -> Member? {
        tape.lastMember(of: 0, named: key).map { Member(tape: tape, index: $0) }
    }

    /// The value of the member named by the literal `key`, or `nil` when there is none (a
    /// literal's bytes are compared as they are, with no copy of a string to read them from).
    public subscript(key: StaticString) -> Member? {
        key.withUTF8Buffer { tape.lastMember(of: 0, named: $0) }.map { Member(tape: tape, index: $0) }
    }

    /// What ``withStringMember(_:_:)`` found.
    public enum StringMember {
        /// No member has the name.
        case absent
        /// The member's value is `null`.
        case null
        /// The member's value is neither a string nor `null`.
        case notString
        /// A string, which the body was called with.
        case string
    }

    /// Calls `body` with the UTF-8 bytes (valid UTF-8, escapes decoded) of the string member
    /// named by the literal `key`, and says what that member is: ``Member/withStringBytes(_:)``
    /// for `self[key]`, without making a ``Member`` (whose reference to the tape was a retain
    /// and a release a line in the command-line tool's batches). Not generic: across modules a
    /// generic result is not specialised.
    public func withStringMember(_ key: StaticString, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows
        -> StringMember {
        guard let index = key.withUTF8Buffer({ tape.lastMember(of: 0, named: $0) }) else { return .absent }
        if tape.entries[index].kind == .null { return .null }
        return try tape.withStringBytes(at: index, body) == nil ? .notString : .string
    }

    /// One member's value, read from the tape.
    public struct Member {
        fileprivate let tape: JSONTape
        fileprivate let index: Int

        /// Whether the value is `null`.
        public var isNull: Bool { tape.entries[index].kind == .null }

        /// The string, or `nil` when the value is not a string.
        public var string: String? { tape.stringIfString(at: index) }

        /// The strings of an array of strings, or `nil` when the value is not an array or one of
        /// its elements is not a string.
        public var strings: [String]? {
            guard tape.entries[index].kind == .array else { return nil }
            var strings: [String] = []
            strings.reserveCapacity(Int(tape.entries[index].length))
            var element = index &+ 1
            for _ in 0..<Int(tape.entries[index].length) {
                guard let string = tape.stringIfString(at: element) else { return nil }
                strings.append(string)
                element = tape.next(after: element)
            }
            return strings
        }

        /// Calls `body` with the string's UTF-8 bytes (valid UTF-8, escapes decoded), without
        /// making a `String`; `nil` when the value is not a string.
        public func withStringBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
            try tape.withStringBytes(at: index, body)
        }
    }
}
