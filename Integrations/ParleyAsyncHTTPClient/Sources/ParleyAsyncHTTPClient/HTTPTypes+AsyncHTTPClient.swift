public import AsyncHTTPClient
import struct Foundation.URL
public import HTTPTypes
import NIOCore
public import NIOHTTP1
import Parley
public import ParleyHTTP

// Conversions between swift-http-types (Parley's currency) and AsyncHTTPClient's NIO types.
// Field order and repeated fields are kept both ways.

extension HTTPClientRequest {
    /// Creates an AsyncHTTPClient request for `request`.
    ///
    /// The URL is the scheme (`http` or `https`), the authority and the path (with its query);
    /// every header field is kept, in order, repeats too, except `Host`: AsyncHTTPClient sets it
    /// from the URL, so the authority decides it. `Content-Length` and `Transfer-Encoding` are
    /// set by AsyncHTTPClient from `body`.
    ///
    /// - Throws: ``AsyncHTTPClientTransport/Failure`` with
    ///   ``AsyncHTTPClientTransport/Failure/Code/invalidRequest`` when the request has no such URL.
    public init(_ request: HTTPRequest, body: Body? = nil) throws(AsyncHTTPClientTransport.Failure) {
        func invalid(_ reason: String) -> AsyncHTTPClientTransport.Failure {
            AsyncHTTPClientTransport.Failure(.invalidRequest, "\(request.method.rawValue) \(reason)")
        }
        guard let scheme = request.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw invalid("has no http or https scheme ('\(request.scheme ?? "")')")
        }
        guard let authority = request.authority, !authority.isEmpty else { throw invalid("has no authority") }
        let path = request.path.flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        guard path.hasPrefix("/") else { throw invalid("has a path that is not absolute ('\(path)')") }
        let url = "\(scheme)://\(authority)\(path)"
        guard let parsed = URL(string: url), parsed.host?.isEmpty == false else {
            throw invalid("has no valid URL ('\(url)')")
        }
        self.init(url: url)
        self.method = HTTPMethod(rawValue: request.method.rawValue)
        self.headers = HTTPHeaders(request.headerFields.filter { $0.name.canonicalName != "host" })
        self.body = body
    }
}

extension HTTPClientRequest.Body {
    /// Creates a body from a Parley request body: bytes as they are, a multipart form produced in
    /// chunks of 64 KiB as it is sent (files are read then, not before), with its exact length.
    public init(_ body: RequestBody) {
        switch body {
        case .bytes(let bytes):
            self = .bytes(bytes)
        case .multipart(let form):
            self = .stream(form.chunks().map { ByteBuffer(bytes: $0) }, length: .known(Int64(form.contentLength)))
        }
    }
}

extension HTTPRequest {
    /// Creates a request from an AsyncHTTPClient request's method, URL and header fields (a
    /// `Host` field is left out: the URL's authority stands for it), or `nil` when the URL has no
    /// scheme and authority. The body is not part of the head.
    public init?(_ request: HTTPClientRequest) {
        guard let separator = request.url.range(of: "://") else { return nil }
        let scheme = String(request.url[..<separator.lowerBound])
        let rest = request.url[separator.upperBound...].prefix { $0 != "#" }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = String(rest[..<authorityEnd])
        guard !scheme.isEmpty, !authority.isEmpty else { return nil }
        let target = rest[authorityEnd...]
        let path = target.isEmpty ? "/" : target.hasPrefix("?") ? "/" + target : String(target)
        guard let method = HTTPRequest.Method(request.method.rawValue) else { return nil }
        let fields = HTTPFields(request.headers).filter { $0.name.canonicalName != "host" }
        self.init(method: method, scheme: scheme, authority: authority, path: path, headerFields: HTTPFields(fields))
    }
}

extension HTTPResponse {
    /// Creates a response head from an AsyncHTTPClient response's status and header fields (in
    /// order, repeats kept).
    ///
    /// - Throws: ``AsyncHTTPClientTransport/Failure`` with
    ///   ``AsyncHTTPClientTransport/Failure/Code/invalidResponse`` for a status code over 999.
    public init(_ response: HTTPClientResponse) throws(AsyncHTTPClientTransport.Failure) {
        let code = Int(response.status.code)
        guard (0...999).contains(code) else {
            throw AsyncHTTPClientTransport.Failure(.invalidResponse, "status code \(code) is not three digits")
        }
        self.init(status: HTTPResponse.Status(code: code, reasonPhrase: response.status.reasonPhrase),
                  headerFields: HTTPFields(response.headers))
    }
}

extension HTTPFields {
    /// Creates fields from NIO's, in order, repeats kept; a name that is not a token is left out
    /// (NIO's parser already refuses those on the wire).
    public init(_ headers: HTTPHeaders) {
        self.init()
        reserveCapacity(headers.count)
        for (name, value) in headers {
            guard let name = HTTPField.Name(name) else { continue }
            append(HTTPField(name: name, value: value))
        }
    }
}

extension HTTPHeaders {
    /// Creates NIO fields from swift-http-types', in order, repeats kept.
    public init(_ fields: HTTPFields) {
        self.init(fields.map { ($0.name.rawName, $0.value) })
    }
}
