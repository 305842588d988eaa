import Parley
import ParleyJSON
import ParleyOpenAPI
import ParleyYAML

/// An exchange built from an OpenAPI document's own examples: what the document says a conforming
/// request and response look like.
struct ExampleExchange {
    /// `METHOD /template`.
    let operation: String
    /// The example's name (`example` for a lone `example`), with the response it came from.
    let name: String
    let request: ContractRequest
    /// `nil` when only the request has examples: the request is checked alone.
    let response: ContractResponse?

    var label: String { "\(operation) \(name)" }
}

/// Generates ``ExampleExchange``s from a document's raw tree: one per response example (status,
/// media type, name), its request built from the parameter and request body examples of the same
/// name, and one request alone per request body example no response shares a name with.
///
/// A value no example gives is taken from the schema (`example`, `enum`, `default`, or the least
/// value of its type; a string with a `pattern` from that pattern when it is a plain sequence of
/// literals and classes); when none can be made for a required part, the exchange is not generated
/// and the reason kept.
struct ExampleExchangeGenerator {
    let root: Value

    /// What a document yielded.
    struct Yield {
        var operations = 0
        var operationsWithExamples = 0
        var exchanges: [ExampleExchange] = []
        /// Exchanges an example asked for that could not be built, with why.
        var notGenerated: [String] = []
    }

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    func exchanges() -> Yield {
        var yield = Yield()
        for path in resolved(root["paths"]).objectValue ?? [:] {
            let item = resolved(path.value)
            for method in Self.methods {
                guard let operationValue = item[method] else { continue }
                yield.operations += 1
                let operation = resolved(operationValue)
                let generated = exchanges(of: operation, method: method, template: path.key,
                                          shared: item["parameters"]?.arrayValue ?? [])
                if generated.hasExamples { yield.operationsWithExamples += 1 }
                yield.exchanges += generated.exchanges
                yield.notGenerated += generated.notGenerated
            }
        }
        return yield
    }

    private func exchanges(of operation: Value, method: String, template: String, shared: [Value])
        -> (hasExamples: Bool, exchanges: [ExampleExchange], notGenerated: [String])
    {
        let label = "\(method.uppercased()) \(template)"
        var parameters: [Value] = []
        for parameter in (shared + (operation["parameters"]?.arrayValue ?? [])).map(resolved) {
            parameters.removeAll { $0["name"] == parameter["name"] && $0["in"] == parameter["in"] }
            parameters.append(parameter)
        }
        let requestBody = operation["requestBody"].map(resolved)
        let requestExamples = requestBody.map { mediaExamples(of: $0) } ?? []
        var responseExamples: [(status: Int, media: String, name: String, value: Value, response: Value)] = []
        for response in operation["responses"]?.objectValue ?? [:] {
            guard let status = Self.status(for: response.key, declared: operation["responses"]) else { continue }
            let value = resolved(response.value)
            for example in mediaExamples(of: value) {
                responseExamples.append((status, example.media, example.name, example.value, value))
            }
        }
        let parameterExamples = parameters.contains { $0["example"] != nil || $0["examples"] != nil }
        let hasExamples = !requestExamples.isEmpty || !responseExamples.isEmpty || parameterExamples
        var exchanges: [ExampleExchange] = []
        var notGenerated: [String] = []
        func build(_ name: String, response: (Int, String, Value, Value)?) {
            do throws(NotGenerated) {
                let request = try self.request(name, method: method, template: template, parameters: parameters,
                                               body: requestBody, bodyExamples: requestExamples)
                var built: ContractResponse?
                if let (status, media, value, declared) = response {
                    built = try self.response(status: status, media: media, example: value, declared: declared)
                }
                exchanges.append(ExampleExchange(operation: label, name: response.map { "\(name) (\($0.0))" } ?? name,
                                                 request: request, response: built))
            } catch {
                notGenerated.append("\(label) \(name): \(error.reason)")
            }
        }
        for example in responseExamples {
            build(example.name, response: (example.status, example.media, example.value, example.response))
        }
        let responseNames = Set(responseExamples.map(\.name))
        for example in requestExamples where !responseNames.contains(example.name) {
            build(example.name, response: nil)
        }
        if requestExamples.isEmpty, responseExamples.isEmpty, parameterExamples { build("parameters", response: nil) }
        return (hasExamples, exchanges, notGenerated)
    }

    // MARK: - Requests

    private func request(_ name: String, method: String, template: String, parameters: [Value], body: Value?,
                         bodyExamples: [(media: String, name: String, value: Value)]) throws(NotGenerated)
        -> ContractRequest
    {
        var path = template
        var query: [String] = []
        var headers: [(name: String, value: String)] = []
        var cookies: [String] = []
        for parameter in parameters {
            guard let parameterName = parameter["name"]?.stringValue, let location = parameter["in"]?.stringValue
            else { continue }
            let required = parameter["required"]?.boolValue == true || location == "path"
            guard let value = try parameterValue(parameter, named: name, required: required) else { continue }
            let style = parameter["style"]?.stringValue
                ?? (location == "query" || location == "cookie" ? "form" : "simple")
            let explode = parameter["explode"]?.boolValue ?? (style == "form")
            let what = "\(location) parameter '\(parameterName)'"
            switch location {
            case "path":
                guard style == "simple" else { throw NotGenerated("\(what) has style \(style)") }
                let text = try Self.joined(value, explode: explode, what: what)
                path = path.replacing("{\(parameterName)}", with: PercentEscaping.rfc3986.escape(text))
            case "query":
                query += try Self.queryPairs(parameterName, value, style: style, explode: explode, what: what)
            case "header":
                headers.append((parameterName, try Self.joined(value, explode: explode, what: what)))
            case "cookie":
                cookies.append("\(parameterName)=\(try Self.joined(value, explode: false, what: what))")
            default:
                throw NotGenerated("\(what) is in an unknown place")
            }
        }
        if !cookies.isEmpty { headers.append(("Cookie", cookies.joined(separator: "; "))) }
        var bytes: [UInt8] = []
        if let body {
            let chosen = bodyExamples.first { $0.name == name } ?? bodyExamples.first
            if let chosen {
                bytes = try Self.encoded(chosen.value, as: chosen.media)
                headers.append(("Content-Type", chosen.media))
            } else if body["required"]?.boolValue == true {
                throw NotGenerated("the request body is required and has no example")
            }
        }
        let target = query.isEmpty ? path : path + "?" + query.joined(separator: "&")
        return ContractRequest(method: method.uppercased(), target: target, headers: headers, body: bytes)
    }

    /// The parameter's example of `name`, else its lone example, else (when required) a value of its schema.
    private func parameterValue(_ parameter: Value, named name: String, required: Bool) throws(NotGenerated)
        -> Value?
    {
        let examples = parameter["examples"]?.objectValue
        if let example = examples?[name].map(resolved), let value = example["value"] { return value }
        if let value = parameter["example"] { return value }
        if let content = parameter["content"]?.objectValue?.first,
           let example = mediaExamples(of: .object(["content": .object(Value.Object([content]))])).first {
            return example.value
        }
        if let value = resolved(parameter["schema"])["example"] { return value }
        guard required else { return nil }
        if let first = examples?.first.map({ resolved($0.value) }), let value = first["value"] { return value }
        guard let schema = parameter["schema"], let value = value(of: schema) else {
            throw NotGenerated("no value for the required parameter '\(parameter["name"]?.stringValue ?? "")'")
        }
        return value
    }

    static func queryPairs(_ name: String, _ value: Value, style: String, explode: Bool, what: String)
        throws(NotGenerated) -> [String]
    {
        let escape = { (text: String) in PercentEscaping.rfc3986.escape(text) }
        switch (value, style) {
        case (.array(let elements), "form") where explode:
            return try elements.map { element throws(NotGenerated) in
                "\(escape(name))=\(escape(try text(of: element, what: what)))"
            }
        case (.array(let elements), "spaceDelimited"), (.array(let elements), "pipeDelimited"):
            let separator = style == "spaceDelimited" ? " " : "|"
            let joined = try elements.map { element throws(NotGenerated) in try text(of: element, what: what) }
            return ["\(escape(name))=\(escape(joined.joined(separator: separator)))"]
        case (.object(let object), "form") where explode:
            return try object.map { member throws(NotGenerated) in
                "\(escape(member.key))=\(escape(try text(of: member.value, what: what)))"
            }
        case (.object(let object), "deepObject"):
            return try object.map { member throws(NotGenerated) in
                "\(escape("\(name)[\(member.key)]"))=\(escape(try text(of: member.value, what: what)))"
            }
        case (_, "form"):
            return ["\(escape(name))=\(escape(try joined(value, explode: false, what: what)))"]
        default:
            throw NotGenerated("\(what) has style \(style) for a \(value.kindName)")
        }
    }

    /// A scalar as text, an array's elements and an object's keys and values joined by commas
    /// (an exploded object as `key=value` pairs), as the `simple` and non-exploded `form` styles write them.
    static func joined(_ value: Value, explode: Bool, what: String) throws(NotGenerated) -> String {
        switch value {
        case .array(let elements):
            return try elements.map { element throws(NotGenerated) in try text(of: element, what: what) }
                .joined(separator: ",")
        case .object(let object):
            return try object.map { member throws(NotGenerated) in
                let text = try text(of: member.value, what: what)
                return explode ? "\(member.key)=\(text)" : "\(member.key),\(text)"
            }.joined(separator: ",")
        default:
            return try text(of: value, what: what)
        }
    }

    static func text(of value: Value, what: String) throws(NotGenerated) -> String {
        switch value {
        case .string(let text), .number(let text): return text
        case .integer(let integer): return String(integer)
        case .float(let double): return String(double)
        case .bool(let bool): return String(bool)
        default: throw NotGenerated("\(what) holds a nested \(value.kindName)")
        }
    }

    // MARK: - Responses

    private func response(status: Int, media: String, example: Value, declared: Value) throws(NotGenerated)
        -> ContractResponse
    {
        var headers: [(name: String, value: String)] = [("Content-Type", media)]
        for header in declared["headers"]?.objectValue ?? [:] {
            let object = resolved(header.value)
            let schema = resolved(object["schema"])
            let what = "response header '\(header.key)'"
            if let value = object["example"] ?? schema["example"] {
                headers.append((header.key, try Self.joined(value, explode: false, what: what)))
            } else if object["required"]?.boolValue == true {
                guard let value = value(of: schema) else { throw NotGenerated("no value for the required \(what)") }
                headers.append((header.key, try Self.joined(value, explode: false, what: what)))
            }
        }
        return ContractResponse(status: status, headers: headers, body: try Self.encoded(example, as: media))
    }

    /// A status code for a response key: itself, the first of a range (`2XX` is 200), or for
    /// `default` the first of 500 and 599 the document does not declare on its own.
    static func status(for key: String, declared: Value?) -> Int? {
        if let code = Int(key) { return code }
        if key.count == 3, key.uppercased().hasSuffix("XX"), let first = Int(key.prefix(1)) { return first * 100 }
        guard key == "default" else { return nil }
        return [500, 599].first { declared?[String($0)] == nil }
    }

    // MARK: - Examples and values

    /// The examples of each media type of a `content` map: `examples` by name, then a lone
    /// `example` (named `example`), else the schema's own `example` (named `schema example`).
    private func mediaExamples(of holder: Value) -> [(media: String, name: String, value: Value)] {
        var found: [(media: String, name: String, value: Value)] = []
        for media in holder["content"]?.objectValue ?? [:] {
            let object = resolved(media.value)
            var named: [(media: String, name: String, value: Value)] = []
            for example in object["examples"]?.objectValue ?? [:] {
                if let value = resolved(example.value)["value"] { named.append((media.key, example.key, value)) }
            }
            if let value = object["example"] { named.append((media.key, "example", value)) }
            if named.isEmpty, let value = resolved(object["schema"])["example"] {
                named.append((media.key, "schema example", value))
            }
            found += named
        }
        return found
    }

    /// A value of `schema` when no example gives one.
    func value(of schema: Value, depth: Int = 0) -> Value? {
        let schema = resolved(schema)
        guard depth < 8 else { return nil }
        if let example = schema["example"] { return example }
        if let first = schema["enum"]?.arrayValue?.first { return first }
        if let value = schema["default"] { return value }
        if let first = (schema["allOf"] ?? schema["oneOf"] ?? schema["anyOf"])?.arrayValue?.first {
            return value(of: first, depth: depth + 1)
        }
        switch schema["type"]?.stringValue {
        case "string":
            if let pattern = schema["pattern"]?.stringValue { return Self.text(matching: pattern).map(Value.string) }
            let length = max(Int(schema["minLength"]?.integerValue ?? 1), 1)
            switch schema["format"]?.stringValue {
            case "date-time": return .string("2020-01-02T03:04:05Z")
            case "date": return .string("2020-01-02")
            default: return .string(String(repeating: "a", count: length))
            }
        case "integer", "number":
            return .integer(schema["minimum"]?.integerValue.map { $0 + 1 } ?? 1)
        case "boolean": return .bool(true)
        case "array":
            let count = Int(schema["minItems"]?.integerValue ?? 0)
            guard count > 0 else { return .array([]) }
            return value(of: schema["items"] ?? .object([:]), depth: depth + 1)
                .map { .array(Array(repeating: $0, count: count)) }
        case "object":
            var object = Value.Object()
            for required in schema["required"]?.arrayValue ?? [] {
                guard let key = required.stringValue, let property = schema["properties"]?[key],
                      let value = value(of: property, depth: depth + 1) else { return nil }
                object.append(key: key, value: value)
            }
            return .object(object)
        default: return nil
        }
    }

    /// A text matching `pattern` when it is anchored and a plain sequence of literals, escapes
    /// (`\d`, `\w`, `\.`), classes and groups of alternatives, each optionally quantified (`{n}`,
    /// `{n,m}`, `+`, `*`, `?`); else `nil`. A class stands for its first character, a group for its
    /// first alternative.
    static func text(matching pattern: String) -> String? {
        var characters = Array(pattern)
        guard characters.first == "^", characters.last == "$" else { return nil }
        characters = Array(characters.dropFirst().dropLast())
        var output = ""
        var index = 0
        while index < characters.count {
            var atom: String
            switch characters[index] {
            case "(":
                // A group of plain alternatives stands for its first.
                guard let close = characters[index...].firstIndex(of: ")"),
                      let first = String(characters[(index + 1)..<close]).split(separator: "|").first,
                      let text = text(matching: "^\(first)$") else { return nil }
                atom = text
                index = close + 1
            case "[":
                guard let close = characters[index...].firstIndex(of: "]"), close > index + 1,
                      characters[index + 1] != "^" else { return nil }
                atom = String(characters[index + 1] == "\\" ? characters[index + 2] : characters[index + 1])
                index = close + 1
            case "\\":
                guard index + 1 < characters.count else { return nil }
                switch characters[index + 1] {
                case "d": atom = "0"
                case "w": atom = "a"
                case let escaped where !escaped.isLetter && !escaped.isNumber: atom = String(escaped)
                default: return nil
                }
                index += 2
            case let literal where literal.isLetter || literal.isNumber || "-_:/@ ,".contains(literal):
                atom = String(literal)
                index += 1
            default:
                return nil
            }
            var count = 1
            if index < characters.count {
                switch characters[index] {
                case "{":
                    guard let close = characters[index...].firstIndex(of: "}"),
                          let least = Int(String(characters[(index + 1)..<close]).split(separator: ",").first ?? "")
                    else { return nil }
                    count = least
                    index = close + 1
                case "+": count = 1; index += 1
                case "*", "?": count = 0; index += 1
                default: break
                }
            }
            output += String(repeating: atom, count: count)
        }
        return output
    }

    /// `value` as a body of `media`: JSON (and `+json`), YAML, a form, or plain text.
    static func encoded(_ value: Value, as media: String) throws(NotGenerated) -> [UInt8] {
        guard let type = try? MediaType(parsing: media) else { throw NotGenerated("media type \(media) does not read") }
        do {
            if type.subtype == "json" || type.suffix == "json" { return try JSONFormat().encode(value) }
            if type.subtype == "yaml" || type.suffix == "yaml" { return try YAMLFormat().encode(value) }
            if type.essence == "application/x-www-form-urlencoded" {
                let encoder = QueryEncoder(arrays: .repeatedKeys, nulls: .omitted, keyOrder: .insertion,
                                           escaping: .form)
                return try encoder.encodeBytes(value)
            }
        } catch {
            throw NotGenerated("the \(media) example does not encode: \(error)")
        }
        if type.type == "text", case .string(let text) = value { return Array(text.utf8) }
        throw NotGenerated("no example body is written as \(media)")
    }

    /// `value` with every local `$ref` (`#/…`) followed, at most 32 deep.
    func resolved(_ value: Value?) -> Value {
        var value = value ?? .object([:])
        for _ in 0..<32 {
            guard let reference = value["$ref"]?.stringValue, reference.hasPrefix("#") else { return value }
            var target = root
            for token in reference.dropFirst().split(separator: "/") {
                let key = String(token).replacing("~1", with: "/").replacing("~0", with: "~")
                guard let next = target[key] else { return .object([:]) }
                target = next
            }
            value = target
        }
        return value
    }
}

/// Why an example asked for an exchange that could not be built.
struct NotGenerated: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
