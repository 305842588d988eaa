import HTTPTypes
public import Parley
public import Vapor

/// Parley's errors carry the status they imply, so Vapor's own `ErrorMiddleware` answers them
/// with it (406, 415, 413, 400) even where ``ParleyMiddleware`` is not installed.
extension ParleyError: @retroactive AbortError {
    /// `ParleyError.impliedStatus` as a Vapor status.
    public var status: HTTPResponseStatus { HTTPResponseStatus(statusCode: Int(impliedStatus.code)) }

    /// `ParleyError.message`.
    public var reason: String { message }

    /// For 415, `Accept` listing the decodable types (RFC 9110 §15.5.16).
    public var headers: HTTPHeaders {
        guard impliedStatus == .unsupportedMediaType, code != .unsupportedContentEncoding,
              !acceptableTypes.isEmpty else { return [:] }
        return ["Accept": acceptableTypes.map(\.description).joined(separator: ", ")]
    }
}
