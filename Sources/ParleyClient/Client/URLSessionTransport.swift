public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
public import HTTPTypes
import HTTPTypesFoundation
import Parley
public import ParleyHTTP

/// The live transport, on `URLSession` (FoundationNetworking on Linux).
///
/// Byte bodies are uploaded from memory; a multipart form is written to a temporary file in
/// bounded memory (`MultipartFormData.write(toFileAt:chunkSize:)`) and uploaded from it,
/// because streamed upload bodies are unreliable in FoundationNetworking. The file is removed
/// when the upload ends.
public struct URLSessionTransport: HTTPTransport {
    /// The session requests run on.
    public let session: URLSession
    /// Where multipart bodies are staged. Default the system temporary directory.
    public var temporaryDirectory: URL

    /// Creates a transport on `session` (default an ephemeral session, so no cookies or cache
    /// are shared with other code).
    public init(session: URLSession = URLSession(configuration: .ephemeral),
                temporaryDirectory: URL = FileManager.default.temporaryDirectory) {
        self.session = session
        self.temporaryDirectory = temporaryDirectory
    }

    /// Errors of the Foundation bridge itself.
    public enum Failure: Error, Sendable {
        /// The request has no URL form (missing scheme or authority).
        case requestNotRepresentable
        /// The response was not HTTP.
        case notHTTPResponse
    }

    public func send(_ request: HTTPRequest, body: RequestBody?) async throws -> (HTTPResponse, [UInt8]) {
        guard let urlRequest = URLRequest(httpRequest: request) else { throw Failure.requestNotRepresentable }
        let data: Data
        let urlResponse: URLResponse
        switch body {
        case nil:
            (data, urlResponse) = try await session.data(for: urlRequest)
        case .bytes(let bytes):
            (data, urlResponse) = try await session.upload(for: urlRequest, from: Data(bytes))
        case .multipart(let form):
            let file = temporaryDirectory.appendingPathComponent("parley-upload-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            try form.write(toFileAt: file.path)
            (data, urlResponse) = try await session.upload(for: urlRequest, fromFile: file)
        }
        guard var response = (urlResponse as? HTTPURLResponse)?.httpResponse else { throw Failure.notHTTPResponse }
        Self.removeUndoneCoding(from: &response, bodyCount: data.count)
        return (response, [UInt8](data))
    }

    /// URLSession undoes the content codings it knows (curl's on Linux: gzip, deflate, br, zstd)
    /// but leaves `Content-Encoding` and the coded `Content-Length` in place. When the body no
    /// longer has the length the server sent, the coding was undone: drop both fields, so the
    /// client does not undo it again (brotli has no signature to tell decoded bytes apart).
    /// Without a `Content-Length` (chunked), the fields stay and the pipeline's signature check
    /// tells a decoded body apart for the codings that have one.
    static func removeUndoneCoding(from response: inout HTTPResponse, bodyCount: Int) {
        guard response.headerFields.contains(.contentEncoding),
              let length = response.headerFields[.contentLength].flatMap({ Int($0) }), length != bodyCount
        else { return }
        response.headerFields[.contentEncoding] = nil
        response.headerFields[.contentLength] = nil
    }
}
