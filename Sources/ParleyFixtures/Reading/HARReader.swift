import Parley
import ParleyHTTP

/// Reads HAR 1.2 logs (http://www.softwareishard.com/blog/har-12-spec/) as browsers and proxies
/// export them: `log.entries[]` with `request` and `response`, bodies in `content.text`,
/// base64 when `content.encoding` says so, optional fields allowed to be missing.
struct HARReader {
    let path: String

    func exchanges(in root: Value) throws(RecordingError) -> [RecordedExchange] {
        guard let log = root["log"], case .object = log else {
            throw RecordingError(.malformed, path: path, "a HAR file needs a top-level \"log\" object")
        }
        guard let entries = log["entries"]?.arrayValue else {
            throw RecordingError(.malformed, path: path, "the HAR log has no \"entries\" list")
        }
        var exchanges: [RecordedExchange] = []
        exchanges.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            guard let request = entry["request"], let response = entry["response"] else {
                throw RecordingError(.malformed, path: path, "entry \(index) has no request or response")
            }
            exchanges.append(RecordedExchange(index: index, request: self.request(request),
                                              response: self.response(response)))
        }
        return exchanges
    }

    private func request(_ value: Value) -> RecordedRequest {
        var body: [UInt8]?
        if let text = value["postData"]?["text"]?.text {
            body = value["postData"]?["encoding"]?.text == "base64" ? LenientBase64.decode(text) : Array(text.utf8)
        }
        return RecordedRequest(method: value["method"]?.text ?? "GET", url: value["url"]?.text ?? "",
                               headers: value["headers"]?.recordedFields ?? [:], body: body)
    }

    private func response(_ value: Value) -> RecordedResponse {
        let content = value["content"]
        var body: [UInt8]?
        var notes: [Finding] = []
        if let text = content?["text"]?.text {
            if content?["encoding"]?.text?.lowercased() == "base64" {
                if let bytes = LenientBase64.decode(text) {
                    body = bytes
                } else {
                    notes.append(Finding(.decodeFailed, "content.text says base64 but is not base64"))
                    body = Array(text.utf8)
                }
            } else {
                body = Array(text.utf8)
            }
        }
        var headers = value["headers"]?.recordedFields ?? [:]
        // HAR keeps the MIME type beside the headers too; some exports have only that.
        if !headers.contains("Content-Type"), let mime = content?["mimeType"]?.text, !mime.isEmpty,
           body.map({ !$0.isEmpty }) ?? false {
            headers.append(name: "Content-Type", value: mime)
            notes.append(Finding(.missingContentType, "no Content-Type header; using content.mimeType \"\(mime)\"",
                                 severity: .note))
        }
        return RecordedResponse(status: value["status"]?.integer ?? 0, reason: value["statusText"]?.text ?? "",
                                httpVersion: value["httpVersion"]?.text, headers: headers, body: body,
                                readingNotes: notes)
    }
}
