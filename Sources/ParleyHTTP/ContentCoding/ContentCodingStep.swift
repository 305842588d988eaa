public import HTTPTypes
public import Parley

/// Undoes a message's `Content-Encoding` (RFC 9110 §8.4.1): the response pipeline's first step,
/// and what a server does to a request body before decoding it.
///
/// Codings are undone last applied first; `identity` is skipped. A body that does not carry a
/// coding's signature is taken as stored decoded (a recording that kept `Content-Encoding`) and
/// passed on as it is. Once a coding was undone or found stored decoded, the fields come back
/// without `Content-Encoding` and `Content-Length`, as a transport that decompresses delivers them.
///
/// ```swift
/// let step = ContentCodingStep(.standard)                     // ParleyCompression
/// let undone = try step.undo(body, fields: request.headerFields)
/// ```
public struct ContentCodingStep: Sendable {
    /// The codings this step undoes.
    public var contentCodings: ContentCodings
    /// The most bytes a coding may decompress to. Default 256 MiB.
    public var maxDecompressedBytes: Int

    /// Creates a step.
    public init(_ contentCodings: ContentCodings,
                maxDecompressedBytes: Int = DecodingLimits.standard.maxDecompressedBytes) {
        self.contentCodings = contentCodings
        self.maxDecompressedBytes = maxDecompressedBytes
    }

    /// A body with its codings undone, and the fields that describe it now.
    public struct Undone: Sendable {
        /// The decoded body.
        public var body: [UInt8]
        /// The message's fields, without `Content-Encoding` and `Content-Length` when a coding
        /// was undone or found stored decoded; unchanged otherwise.
        public var headerFields: HTTPFields
        /// The codings the fields name whose body was already decoded, in the order undone.
        public var storedDecoded: [String]
    }

    /// Undoes the codings `fields` name on `body`.
    ///
    /// - Parameters:
    ///   - body: The body as received.
    ///   - fields: The message's fields; `Content-Encoding` is read.
    ///   - maximumBytes: A tighter bound than `maxDecompressedBytes` (the matched format's body
    ///     limit), or `nil`.
    /// - Throws: `ParleyError`: `ParleyError.Code.unsupportedContentEncoding` for a coding
    ///   `contentCodings` lacks, `ParleyError.Code.limitExceeded` past the bound,
    ///   `ParleyError.Code.decodingFailed` for corrupt or truncated data.
    public func undo(_ body: [UInt8], fields: HTTPFields, maximumBytes: Int? = nil) throws(ParleyError) -> Undone {
        let tokens = ContentCodings.tokens(of: fields)
        var undone = Undone(body: body, headerFields: fields, storedDecoded: [])
        guard !tokens.isEmpty else { return undone }
        let limit = min(maxDecompressedBytes, maximumBytes ?? .max)
        var changed = false
        for token in tokens.reversed() where token != "identity" {
            guard let decoder = contentCodings.decoder(for: token) else {
                throw ParleyError(.unsupportedContentEncoding, "unsupported Content-Encoding '\(token)'")
            }
            guard decoder.looksEncoded(undone.body) else {
                undone.storedDecoded.append(token)
                changed = true
                continue
            }
            do {
                undone.body = try decoder.decode(undone.body, maximumBytes: limit)
                changed = true
            } catch {
                if case .limitExceeded(let maximum) = error.reason {
                    throw ParleyError(.limitExceeded, error.description,
                                      limit: FormatError.Limit(name: "maxDecompressedBytes", maximum: maximum,
                                                               actual: nil))
                }
                throw ParleyError(.decodingFailed, error.description)
            }
        }
        if changed {
            undone.headerFields[.contentEncoding] = nil
            undone.headerFields[.contentLength] = nil
        }
        return undone
    }

    /// Undoes the codings `fields` name on `body`, bounded by the body limit of the format
    /// `registry` matches to their `Content-Type` too.
    ///
    /// - Throws: `ParleyError` as `undo(_:fields:maximumBytes:)` does.
    public func undo(_ body: [UInt8], fields: HTTPFields, registry: Registry) throws(ParleyError) -> Undone {
        guard fields.contains(.contentEncoding) else {
            return Undone(body: body, headerFields: fields, storedDecoded: [])
        }
        let match = fields.combinedValue(of: .contentType).flatMap(registry.decoder(forContentType:))
        return try undo(body, fields: fields, maximumBytes: match?.limits.maxBodyBytes)
    }
}
