import HTTPTypes
import Parley
import ParleyCompression
import ParleyFixtures
import ParleyHTTP

/// What the gateway hands the HAR recorder, made safe to store first; redaction fails closed.
///
/// - URLs: the secret query parameters (``URLRedaction``) are redacted in the request target
///   and in `Location`, `Content-Location`, `Referer` and `Link` fields of both messages (the
///   recorder's `redirectURL` comes from `Location`).
/// - Bodies, when body paths are to be redacted: a body the recorder could not redact for
///   certain is replaced by a placeholder naming why, never stored: one over the capture cap,
///   one whose content coding does not undo within the cap, one with no format that decodes and
///   re-encodes its type, a multipart or form body, a textual body in a charset other than
///   UTF-8, one its format cannot decode (malformed JSON).
struct RecordingFilter: Sendable {
    let registry: Registry
    let urls: URLRedaction
    /// Whether body paths are redacted (otherwise bodies are recorded as they are).
    let redactsBodies: Bool
    /// The capture cap: the most body bytes kept (``RecordingOptions/maxRecordedBodyBytes``).
    let maxBytes: Int

    /// `exchange` with its URLs redacted and every body it cannot vouch for replaced.
    func apply(to exchange: CapturedExchange) -> CapturedExchange {
        var exchange = exchange
        exchange.request.path = exchange.request.path.map(urls.apply(to:))
        exchange.request.headerFields = redactingURLs(in: exchange.request.headerFields)
        exchange.response.headerFields = redactingURLs(in: exchange.response.headerFields)
        if redactsBodies {
            if let reason = unredactableReason(exchange.requestBody, total: exchange.requestBodyByteCount,
                                               fields: exchange.request.headerFields) {
                exchange.requestBody = Self.placeholder(reason)
            }
            if let reason = unredactableReason(exchange.responseBody, total: exchange.responseBodyByteCount,
                                               fields: exchange.response.headerFields) {
                exchange.responseBody = Self.placeholder(reason)
            }
        }
        return exchange
    }

    /// What is stored instead of a body that cannot be redacted.
    static func placeholder(_ reason: String) -> [UInt8] {
        Array("[parley-gateway: body not recorded: \(reason)]".utf8)
    }

    private func redactingURLs(in fields: HTTPFields) -> HTTPFields {
        var redacted = HTTPFields()
        for var field in fields {
            if URLRedaction.urlFields.contains(field.name.canonicalName) { field.value = urls.apply(to: field.value) }
            redacted.append(field)
        }
        return redacted
    }

    /// Why `bytes` (of `total`) cannot be redacted for certain, or `nil` when the recorder can.
    func unredactableReason(_ bytes: [UInt8], total: Int, fields: HTTPFields) -> String? {
        guard total > 0 else { return nil }
        if bytes.count < total { return "it is over the capture cap of \(maxBytes) bytes" }
        guard let text = fields.combinedValue(of: .contentType), let type = try? MediaType(parsing: text) else {
            return "it has no usable Content-Type"
        }
        if type.type == "multipart" { return "multipart bodies are not redacted" }
        if type.essence == "application/x-www-form-urlencoded" { return "form bodies are not redacted" }
        guard let match = registry.decoder(for: type), !match.format.encodableMediaTypes.isEmpty else {
            return "no format decodes and re-encodes \(type.essence)"
        }
        if let charset = type.parameter("charset")?.lowercased(), !["utf-8", "utf8", "us-ascii"].contains(charset) {
            return "charset \(charset) is not redacted"
        }
        var readable = bytes
        let codings = ContentCodings.tokens(of: fields).filter { $0 != "identity" }
        if !codings.isEmpty {
            do {
                let step = ContentCodingStep(.standard, maxDecompressedBytes: maxBytes)
                readable = try step.undo(bytes, fields: fields).body
            } catch {
                return "its Content-Encoding \(codings.joined(separator: ", ")) does not undo within \(maxBytes) bytes"
                    + " (\(error.message))"
            }
        }
        do { _ = try match.decode(readable, contentType: type) } catch {
            return "\(match.format.name) cannot decode it (\(error.message))"
        }
        return nil
    }
}
