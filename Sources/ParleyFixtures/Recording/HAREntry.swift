import FoundationEssentials
import HTTPTypes
import Parley

/// One HAR 1.2 `log.entries[]` object for a captured exchange, as a value tree the JSON format
/// writes (http://www.softwareishard.com/blog/har-12-spec/#entries).
struct HAREntry {
    let exchange: CapturedExchange
    let requestBody: PreparedBody
    let responseBody: PreparedBody
    /// Lower-cased names of the header fields whose values are replaced.
    let redactedHeaders: Set<String>
    let redactedQuery: QueryRedaction
    let replacement: String

    var value: Value {
        let time = Value.float(exchange.totalMilliseconds.isFinite ? max(0, exchange.totalMilliseconds) : 0)
        var entry: Value.Object = [
            "startedDateTime": .string(exchange.startedAt.formatted(Self.dateStyle)),
            "time": time,
            "request": request,
            "response": response,
            "cache": .object([:]),
            // Only the total is known; HAR requires these three, -1 marks the others unknown.
            "timings": ["blocked": -1, "dns": -1, "connect": -1, "send": 0, "wait": time,
                        "receive": 0, "ssl": -1],
        ]
        let notes = requestBody.notes + responseBody.notes
        if !notes.isEmpty { entry["comment"] = .string(notes.joined(separator: "; ")) }
        if !exchange.annotations.isEmpty { entry["_parley"] = .object(exchange.annotations) }
        return .object(entry)
    }

    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private var request: Value {
        let request = exchange.request
        let path = redactedQuery.apply(to: request.path ?? "/")
        let authority = request.authority ?? request.headerFields[HTTPField.Name("Host")!] ?? "localhost"
        var object: Value.Object = [
            "method": .string(request.method.rawValue),
            "url": .string("\(request.scheme ?? "http")://\(authority)\(path)"),
            "httpVersion": .string(exchange.httpVersion),
            "cookies": [],
            "headers": headers(request.headerFields, contentLength: requestBody.contentLength),
            "queryString": .array(Self.queryString(of: path)),
            "headersSize": -1,
            "bodySize": .integer(Int64(requestBody.wireSize)),
        ]
        if exchange.requestBodyByteCount > 0 {
            var postData: Value.Object = ["mimeType": .string(request.headerFields[.contentType] ?? "")]
            Self.addText(requestBody.bytes, to: &postData)
            object["postData"] = .object(postData)
        }
        return .object(object)
    }

    private var response: Value {
        let response = exchange.response
        var content: Value.Object = [
            "size": .integer(Int64(responseBody.size)),
            "mimeType": .string(response.headerFields[.contentType] ?? ""),
        ]
        if responseBody.size != responseBody.wireSize, responseBody.size > 0 {
            content["compression"] = .integer(Int64(responseBody.size - responseBody.wireSize))
        }
        Self.addText(responseBody.bytes, to: &content)
        return [
            "status": .integer(Int64(response.status.code)),
            "statusText": .string(response.status.reasonPhrase),
            "httpVersion": .string(exchange.httpVersion),
            "cookies": [],
            "headers": headers(response.headerFields, contentLength: responseBody.contentLength),
            "content": .object(content),
            "redirectURL": .string(redactedQuery.apply(to: response.headerFields[.location] ?? "")),
            "headersSize": -1,
            "bodySize": .integer(Int64(responseBody.wireSize)),
        ]
    }

    /// `[{name, value}]` in received order, redacted values replaced.
    private func headers(_ fields: HTTPFields, contentLength: Int?) -> Value {
        .array(fields.map { field in
            var value = field.value
            if redactedHeaders.contains(field.name.canonicalName) {
                value = replacement
            } else if field.name == .location {
                value = redactedQuery.apply(to: value)
            } else if field.name == .contentLength, let contentLength {
                value = String(contentLength)
            }
            return ["name": .string(field.name.rawName), "value": .string(value)]
        })
    }

    /// `text`: UTF-8 text as it is, anything else base64 with `"encoding": "base64"` (HAR 1.2).
    private static func addText(_ bytes: [UInt8], to object: inout Value.Object) {
        if let text = String(validating: bytes, as: UTF8.self) {
            object["text"] = .string(text)
        } else {
            object["text"] = .string(Data(bytes).base64EncodedString())
            object["encoding"] = "base64"
        }
    }

    /// The query's `name=value` pairs, percent-decoded where that gives text.
    private static func queryString(of path: String) -> [Value] {
        guard let mark = path.firstIndex(of: "?") else { return [] }
        let query = path[path.index(after: mark)...].prefix { $0 != "#" }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String {
                PercentEscaping.unescapeStrictly(Array(part.utf8), plusAsSpace: false) ?? String(part)
            }
            return ["name": .string(decoded(parts[0])), "value": .string(parts.count > 1 ? decoded(parts[1]) : "")]
        }
    }
}

/// Replaces the values of named query parameters in a URL or request target.
struct QueryRedaction {
    /// Lower-cased, percent-decoded names.
    private let names: Set<String>
    private let replacement: String

    init(parameters: [String], replacement: String) {
        names = Set(parameters.map { $0.lowercased() })
        // Foundation's URL-query set without the query's own syntax, `&=+#`.
        self.replacement = PercentEscaping.rfc3986.allowing("!$'()*,/:;?@").escape(replacement)
    }

    /// `target` with the value of every named parameter of its query replaced; the rest,
    /// order and spelling included, as it was.
    func apply(to target: String) -> String {
        guard !names.isEmpty, let mark = target.firstIndex(of: "?") else { return target }
        let queryStart = target.index(after: mark)
        let queryEnd = target[queryStart...].firstIndex(of: "#") ?? target.endIndex
        let query = target[queryStart..<queryEnd]
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.prefix { $0 != "=" }
            let unescaped = PercentEscaping.unescapeStrictly(Array(name.utf8), plusAsSpace: true)
            let decoded = (unescaped ?? String(name)).lowercased()
            return names.contains(decoded) ? "\(name)=\(replacement)" : String(pair)
        }
        return String(target[..<queryStart]) + pairs.joined(separator: "&") + String(target[queryEnd...])
    }
}
