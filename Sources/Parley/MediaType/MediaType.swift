/// A media type such as `application/vnd.api+json; charset=utf-8` (RFC 9110 §8.3, RFC 6838).
///
/// Type, subtype and parameter names are stored lower-cased; parameter values keep their case
/// and their order. Two media types are equal when type, subtype and the set of parameters are
/// equal, comparing the `charset` value case-insensitively.
///
/// ```swift
/// let type = try MediaType(parsing: "Application/Problem+JSON; charset=UTF-8")
/// type.suffix            // "json"
/// type.charset           // "UTF-8"
/// type.description       // "application/problem+json; charset=UTF-8"
/// ```
///
/// Ranges such as `text/*` and `*/*` parse too (``isRange``); they never match as a concrete
/// `Content-Type`.
public struct MediaType: Sendable, Hashable, CustomStringConvertible, LosslessStringConvertible,
    ExpressibleByStringLiteral {
    /// The top-level type, lower-cased (`application`), or `*`.
    public let type: String
    /// The subtype, lower-cased (`vnd.api+json`), or `*`.
    public let subtype: String
    /// The parameters in the order given.
    public var parameters: [Parameter] { parameterList.array }
    /// The parameters, stored without allocating for none or one (what the command-line tool
    /// writes them from, without the array ``parameters`` makes).
    package let parameterList: ParameterList

    /// Creates a media type from parts, lower-casing the type, subtype and parameter names.
    ///
    /// The parts are not checked against the grammar; use ``init(parsing:)-(String)`` for input.
    public init(type: String, subtype: String, parameters: [Parameter] = []) {
        self.type = type.lowercased()
        self.subtype = subtype.lowercased()
        self.parameterList = ParameterList(parameters)
    }

    package init(lowercasedType type: String, subtype: String, parameters: [Parameter]) {
        self.type = type
        self.subtype = subtype
        self.parameterList = ParameterList(parameters)
    }

    init(lowercasedType type: String, subtype: String, parameterList: ParameterList) {
        self.type = type
        self.subtype = subtype
        self.parameterList = parameterList
    }

    /// Parses one media type; the quiet form of ``init(parsing:)-(String)``.
    public init?(_ description: String) {
        guard let parsed = try? MediaType(parsing: description) else { return nil }
        self = parsed
    }

    /// Parses a media type literal. A literal that breaks the grammar is a programming error.
    public init(stringLiteral value: String) {
        do {
            self = try MediaType(parsing: value)
        } catch {
            preconditionFailure("invalid media type literal \"\(value)\": \(error)")
        }
    }

    /// The structured-syntax suffix: the text after the last `+` of the subtype (`json` in
    /// `application/problem+json`), or `nil`.
    public var suffix: String? {
        // After an ASCII `+`, so the suffix is whole characters.
        withSubtypeUTF8 { _, suffix in suffix.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Calls `body` with the UTF-8 bytes of ``subtype`` and those of ``suffix`` among them (`nil`
    /// when there is none), without making a string for either (for writers of bytes, such as
    /// the command-line tool's answers).
    package func withSubtypeUTF8<R>(
        _ body: (_ subtype: UnsafeBufferPointer<UInt8>, _ suffix: UnsafeBufferPointer<UInt8>?) throws -> R
    ) rethrows -> R {
        var subtype = subtype
        return try subtype.withUTF8 { bytes in
            guard let plus = bytes.lastIndex(of: UInt8(ascii: "+")), plus + 1 < bytes.count else {
                return try body(bytes, nil)
            }
            return try body(bytes, UnsafeBufferPointer(rebasing: bytes[(plus + 1)...]))
        }
    }

    /// `type/subtype` without parameters.
    public var essence: String { "\(type)/\(subtype)" }

    /// Whether the type or subtype is the wildcard `*`.
    public var isRange: Bool { type == "*" || subtype == "*" }

    /// The value of the parameter named `name` (any case), or `nil`.
    public func parameter(_ name: String) -> String? {
        parameter(lowercasedName: name.lowercased())
    }

    /// The `charset` parameter's value, as given.
    public var charset: String? {
        // The name is lower case already: no folding (every decode asks for the charset).
        parameter(lowercasedName: "charset")
    }

    /// The value of the parameter named `name`, which is lower case (parameter names are
    /// stored lower case), or `nil`.
    private func parameter(lowercasedName name: String) -> String? {
        parameterList.first { $0.name == name }?.value
    }

    /// A copy with the parameter `name` set to `value` (replacing an existing one in place).
    public func settingParameter(_ name: String, to value: String) -> MediaType {
        let name = name.lowercased()
        var parameters = parameterList
        if !parameters.setValue(value, forName: name) {
            parameters.append(Parameter(name: name, value: value))
        }
        return MediaType(lowercasedType: type, subtype: subtype, parameterList: parameters)
    }

    /// A copy without parameters.
    public var withoutParameters: MediaType {
        MediaType(lowercasedType: type, subtype: subtype, parameters: [])
    }

    /// The canonical text: lower-case names, `; ` between parameters, values quoted only when
    /// they are not tokens.
    public var description: String {
        var text = essence
        for parameter in parameterList {
            text += "; "
            text += parameter.description
        }
        return text
    }

    public static func == (lhs: MediaType, rhs: MediaType) -> Bool {
        guard lhs.type == rhs.type, lhs.subtype == rhs.subtype,
              lhs.parameterList.count == rhs.parameterList.count else { return false }
        for parameter in lhs.parameterList {
            guard let other = rhs.parameterList.first(where: { $0.name == parameter.name }),
                  parameter.hasEqualValue(other) else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(subtype)
        // Order-independent: parameter names are unique within a parsed media type.
        var combined = 0
        for parameter in parameterList {
            var inner = Hasher()
            inner.combine(parameter.name)
            inner.combine(parameter.comparableValue)
            combined ^= inner.finalize()
        }
        hasher.combine(combined)
    }
}

extension MediaType {
    /// `application/octet-stream`.
    public static let applicationOctetStream = MediaType(
        lowercasedType: "application", subtype: "octet-stream", parameters: [])
    /// `text/plain`.
    public static let textPlain = MediaType(lowercasedType: "text", subtype: "plain", parameters: [])
    /// `*/*`.
    public static let any = MediaType(lowercasedType: "*", subtype: "*", parameters: [])
}
