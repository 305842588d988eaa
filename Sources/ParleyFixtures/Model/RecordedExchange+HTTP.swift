public import HTTPTypes
import Parley

extension RecordedResponse {
    /// The response as a live transport delivers it to `HTTPTypes`: fields `HTTPFields` cannot
    /// hold (HTTP/2 pseudo-headers such as `:status`) and hop-by-hop framing
    /// (`Transfer-Encoding`, already undone by the reader) left out. A status outside 0–999
    /// (which `HTTPTypes` cannot hold) becomes 0. Only the first `RecordedFields/maxCount` fields
    /// are taken (`HTTPFields` traps past 65,535); checks and replays refuse such a response first.
    public var httpResponse: HTTPResponse {
        var fields = HTTPFields()
        for field in headers.prefix(RecordedFields.maxCount) where field.name.lowercased() != "transfer-encoding" {
            guard let name = HTTPField.Name(field.name) else { continue }
            fields.append(HTTPField(name: name, value: field.value))
        }
        let code = (0...999).contains(status) ? status : 0
        return HTTPResponse(status: HTTPResponse.Status(code: code, reasonPhrase: reason), headerFields: fields)
    }
}

extension RecordedRequest {
    /// The request's method and header fields as `HTTPTypes` holds them (no URL parts: the
    /// response pipeline reads only the method), or `nil` when the method is not a token.
    public var httpRequest: HTTPRequest? {
        guard let method = HTTPRequest.Method(method) else { return nil }
        var fields = HTTPFields()
        for field in headers.prefix(RecordedFields.maxCount) {
            guard let name = HTTPField.Name(field.name) else { continue }
            fields.append(HTTPField(name: name, value: field.value))
        }
        return HTTPRequest(method: method, scheme: nil, authority: nil, path: nil, headerFields: fields)
    }
}

extension RecordedExchange {
    /// Whether the response may have content (not an answer to HEAD, nor 1xx, 204, 205 or 304)
    /// but the recording holds no body for it (HAR exports often leave image bodies out).
    /// Such an exchange is not checked, and replaying it fails: there is nothing to decode.
    public var isMissingItsBody: Bool {
        response.body == nil
            && !EmptyBodyPolicy.hasNoContent(status: response.status, requestMethod: HTTPRequest.Method(request.method))
    }
}
