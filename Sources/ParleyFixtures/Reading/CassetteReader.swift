import Parley

/// Reads VCR-style cassettes: Ruby vcr (YAML or JSON), vcrpy, and go-vcr v1 and v2.
struct CassetteReader {
    let path: String

    /// The kind of cassette `root` is, or `nil` when it is none.
    static func kind(of root: Value, serializedAsJSON: Bool) -> RecordingKind? {
        if root["http_interactions"] != nil { return serializedAsJSON ? .rubyVCRJSON : .rubyVCRYAML }
        guard let interactions = root["interactions"]?.arrayValue else { return nil }
        if root["version"]?.integer == 2 { return .goVCR2 }
        guard let first = interactions.first?["response"] else {
            return root["version"]?.integer == 1 ? .vcrpy : nil
        }
        if case .object = first["status"] ?? .null { return .vcrpy }
        if first["status_code"] != nil { return .vcrpy }  // vcrpy's old httpx layout
        if first["code"] != nil { return .goVCR1 }
        return .vcrpy
    }

    func exchanges(in root: Value, kind: RecordingKind) throws(RecordingError) -> [RecordedExchange] {
        let list = kind == .rubyVCRYAML || kind == .rubyVCRJSON ? root["http_interactions"] : root["interactions"]
        guard case .array(let interactions) = list ?? .null else {
            throw RecordingError(.malformed, path: path, "the cassette's interactions are not a list")
        }
        var exchanges: [RecordedExchange] = []
        exchanges.reserveCapacity(interactions.count)
        for (index, interaction) in interactions.enumerated() {
            if case .tagged(let tag, _) = interaction {
                throw RecordingError(.malformed, path: path,
                                     "interaction \(index) is a serialized application object (\(tag)), not data; " +
                                     "re-record it with a current vcr")
            }
            guard let request = interaction["request"], let response = interaction["response"] else {
                throw RecordingError(.malformed, path: path, "interaction \(index) has no request or response")
            }
            for (side, value) in [("request", request), ("response", response)] {
                if case .tagged(let tag, _) = value {
                    throw RecordingError(.malformed, path: path,
                                         "interaction \(index)'s \(side) is a serialized application object " +
                                         "(\(tag)), not data")
                }
            }
            exchanges.append(RecordedExchange(index: index, request: self.request(request, kind: kind),
                                              response: self.response(response, kind: kind)))
        }
        return exchanges
    }

    private func request(_ value: Value, kind: RecordingKind) -> RecordedRequest {
        let url = value["uri"]?.text ?? value["url"]?.text ?? ""
        return RecordedRequest(method: value["method"]?.text ?? "GET", url: url,
                               headers: value["headers"]?.recordedFields ?? [:],
                               body: body(value["body"], kind: kind))
    }

    private func response(_ value: Value, kind: RecordingKind) -> RecordedResponse {
        let status: Int
        let reason: String
        var version: String?
        switch kind {
        case .goVCR1, .goVCR2:
            status = value["code"]?.integer ?? 0
            let line = value["status"]?.text ?? ""
            reason = line.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            version = value["proto"]?.text
        default:
            if let statusObject = value["status"], case .object = statusObject {
                status = statusObject["code"]?.integer ?? 0
                reason = statusObject["message"]?.text ?? ""
            } else {
                status = value["status_code"]?.integer ?? value["status"]?.integer ?? 0
                reason = ""
            }
            version = value["http_version"]?.text
        }
        let bodyValue = value["body"] ?? value["content"]
        return RecordedResponse(status: status, reason: reason, httpVersion: version,
                                headers: value["headers"]?.recordedFields ?? [:], body: body(bodyValue, kind: kind))
    }

    /// A body in any of the shapes cassettes use: a string, `!!binary` bytes, Ruby psych's
    /// `!binary` base64, `{string: …}`, `{base64_string: …}`, or `null`.
    private func body(_ value: Value?, kind: RecordingKind) -> [UInt8]? {
        guard let value else { return nil }
        switch value {
        case .null:
            return nil
        case .string(let text):
            return Array(text.utf8)
        case .bytes(let bytes):
            return bytes
        case .tagged(let tag, let inner):
            if tag == "!binary" || tag.hasSuffix(":binary"), let text = inner.text {
                return LenientBase64.decode(text) ?? Array(text.utf8)
            }
            return inner.text.map { Array($0.utf8) }
        case .object:
            if let base64 = value["base64_string"]?.text { return LenientBase64.decode(base64) ?? Array(base64.utf8) }
            if let string = value["string"] { return body(string, kind: kind) }
            return nil
        default:
            return value.text.map { Array($0.utf8) }
        }
    }
}
