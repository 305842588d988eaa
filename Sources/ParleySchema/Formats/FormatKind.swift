import Parley

/// A `format` the module can assert.
enum FormatKind: Sendable {
    case date, time, dateTime, duration
    case email, idnEmail, hostname, idnHostname, ipv4, ipv6
    /// Draft 4's `hostname`: RFC 1123 alone, without the IDNA A-label rules.
    case hostnameRFC1123
    case uri, uriReference, iri, iriReference, uriTemplate, uuid
    case jsonPointer, relativeJSONPointer, regex
    case int32, int64, float, double, byte, binary, password

    /// The format named `name`, if the module knows it (unknown formats are annotations only).
    init?(name: String, draft4: Bool) {
        switch name {
        case "date": self = .date
        case "time": self = .time
        case "date-time": self = .dateTime
        case "duration": self = .duration
        case "email": self = .email
        case "idn-email": self = .idnEmail
        case "hostname": self = draft4 ? .hostnameRFC1123 : .hostname
        case "idn-hostname": self = .idnHostname
        case "ipv4": self = .ipv4
        case "ipv6": self = .ipv6
        case "uri": self = .uri
        case "uri-reference": self = .uriReference
        case "iri": self = .iri
        case "iri-reference": self = .iriReference
        case "uri-template": self = .uriTemplate
        case "uuid": self = .uuid
        case "json-pointer": self = .jsonPointer
        case "relative-json-pointer": self = .relativeJSONPointer
        case "regex": self = .regex
        case "int32": self = .int32
        case "int64": self = .int64
        case "float": self = .float
        case "double": self = .double
        case "byte": self = .byte
        case "binary": self = .binary
        case "password": self = .password
        default: return nil
        }
    }

    /// Whether `instance` is valid for the format; values of other types always are.
    func accepts(_ instance: Value) -> Bool {
        switch self {
        case .int32, .int64, .float, .double:
            guard let number = ExactNumber(instance) else { return true }
            return FormatChecks.numberFits(number, instance, self)
        case .binary, .password: return true
        default:
            guard let text = instance.schemaString else { return true }
            if case .bytes = instance, self == .byte { return true }
            return FormatChecks.check(text, self)
        }
    }
}
