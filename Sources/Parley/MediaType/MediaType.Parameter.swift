extension MediaType {
    /// One `name=value` parameter of a media type.
    public struct Parameter: Sendable, Hashable, CustomStringConvertible {
        /// The name, lower-cased.
        public let name: String
        /// The value, unquoted and unescaped, in its original case.
        public var value: String

        /// Creates a parameter, lower-casing the name.
        public init(name: String, value: String) {
            self.name = name.lowercased()
            self.value = value
        }

        package init(lowercasedName name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// Whether the value compares case-insensitively (`charset`, RFC 9110 §8.3.2).
        public var isCaseInsensitive: Bool { name == "charset" }

        /// The value as it is compared: lower-cased for case-insensitive parameters.
        var comparableValue: String { isCaseInsensitive ? value.lowercased() : value }

        /// Whether `other` has an equal value under this parameter's comparison rule.
        public func hasEqualValue(_ other: Parameter) -> Bool {
            isCaseInsensitive ? value.lowercased() == other.value.lowercased() : value == other.value
        }

        /// `name=value`, quoting the value when it is empty or not a token.
        public var description: String {
            let needsQuotes = value.isEmpty || value.utf8.contains { !ByteClass.isToken($0) }
            guard needsQuotes else { return "\(name)=\(value)" }
            var quoted = "\""
            for scalar in value.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { quoted.append("\\") }
                quoted.unicodeScalars.append(scalar)
            }
            quoted.append("\"")
            return "\(name)=\(quoted)"
        }
    }
}
