import HTTPTypes
import Parley
import ParleyHTTP

/// A body as it goes into a HAR entry: coding undone where possible, redacted, capped.
struct PreparedBody: Sendable {
    /// The bytes to store (at most ``RecordingOptions/maxRecordedBodyBytes``).
    var bytes: [UInt8]
    /// HAR `content.size`: the length of the body with its content coding undone, when known;
    /// otherwise the bytes received.
    var size: Int
    /// HAR `bodySize`: the bytes received.
    var wireSize: Int
    /// What happened to the body worth telling a reader of the HAR.
    var notes: [String]
    /// The `Content-Length` the recorded field should say, when redaction rewrote a body that
    /// has no content coding (so a checker comparing the two sees the body stored).
    var contentLength: Int?
}

/// Turns received bodies into what a HAR entry stores, by the rules ``HARRecorder`` documents:
/// content coding undone (through the response pipeline's own step 1) when the decoded body
/// fits the cap, paths redacted through the registry's formats, the result cut to the cap.
struct BodyRecorder: Sendable {
    let registry: Registry
    let paths: [RedactionPath]
    let replacement: String
    let maxBytes: Int
    let pipeline: ResponsePipeline

    init(registry: Registry, paths: [RedactionPath], options: RecordingOptions) {
        self.registry = registry
        self.paths = paths
        self.replacement = options.replacement
        self.maxBytes = options.maxRecordedBodyBytes
        self.pipeline = ResponsePipeline(registry: registry, contentCodings: options.contentCodings,
                                         maxDecompressedBytes: options.maxRecordedBodyBytes)
    }

    /// Prepares `bytes` (of `totalCount` received) carried with `fields`; `label` ("request
    /// body", "response body") starts each note.
    func prepare(_ received: [UInt8], totalCount: Int, fields: HTTPFields, label: String) -> PreparedBody {
        var body = PreparedBody(bytes: received, size: totalCount, wireSize: totalCount, notes: [])
        guard !received.isEmpty else { return body }
        let cutBefore = received.count < totalCount
        let codings = ContentCodings.tokens(of: fields).filter { $0 != "identity" }
        var readable = codings.isEmpty && !cutBefore
        if !codings.isEmpty {
            let names = codings.joined(separator: ", ")
            if cutBefore {
                body.notes.append("\(label): Content-Encoding \(names) not undone, the body reached the recorder " +
                                  "cut; stored as received")
            } else {
                do {
                    // The pipeline's content-coding step, on the fields alone.
                    let decoded = try pipeline.contentCodingStep.undo(received, fields: fields,
                                                                      registry: pipeline.registry).body
                    body.bytes = decoded
                    body.size = decoded.count
                    readable = true
                } catch {
                    let reason = error.code == .limitExceeded
                        ? "it decodes to more than maxRecordedBodyBytes (\(maxBytes))" : error.message
                    body.notes.append("\(label): Content-Encoding \(names) not undone (\(reason)); stored as received")
                }
            }
        }
        if !paths.isEmpty {
            if readable {
                redact(&body, fields: fields, label: label)
            } else {
                body.notes.append("\(label): not redacted (not readable: cut or still content-coded)")
            }
        }
        if body.bytes.count > maxBytes {
            body.bytes.removeLast(body.bytes.count - maxBytes)
        }
        if body.bytes.count < body.size {
            body.notes.append("\(label): cut to \(body.bytes.count) of \(body.size) bytes (maxRecordedBodyBytes " +
                              "\(maxBytes))")
        }
        return body
    }

    /// Replaces the values `paths` name, through the format the `Content-Type` selects.
    private func redact(_ body: inout PreparedBody, fields: HTTPFields, label: String) {
        guard let typeText = fields[.contentType], let type = try? MediaType(parsing: typeText) else {
            body.notes.append("\(label): not redacted (no usable Content-Type)")
            return
        }
        guard let match = registry.decoder(for: type), !match.format.encodableMediaTypes.isEmpty else {
            body.notes.append("\(label): not redacted (no registered format decodes and encodes \(type.essence))")
            return
        }
        if match.format.isTextual, let charset = type.parameter("charset")?.lowercased(),
           !["utf-8", "utf8", "us-ascii"].contains(charset) {
            body.notes.append("\(label): not redacted (charset \(charset): the encoder writes UTF-8)")
            return
        }
        var value: Value
        do {
            value = try match.decode(body.bytes, contentType: type)
        } catch {
            body.notes.append("\(label): not redacted (\(match.format.name) cannot decode it: \(error.message))")
            return
        }
        let replacementValue = Value.string(replacement)
        let count = paths.reduce(0) { $0 + $1.apply(to: &value, replacement: replacementValue) }
        guard count > 0 else { return }
        let encodedType = match.format.encodableMediaTypes.contains { $0.essence == type.essence } ? type
            : match.format.encodableMediaTypes[0]
        do {
            body.bytes = try match.format.encode(value, context: EncodingContext(mediaType: encodedType))
            body.size = body.bytes.count
            if ContentCodings.tokens(of: fields).allSatisfy({ $0 == "identity" }) {
                body.contentLength = body.bytes.count
            }
        } catch {
            // The body holds a value that must not be recorded and cannot be rewritten without it.
            body.bytes = []
            body.size = 0
            body.contentLength = 0
            body.notes.append("\(label): left out: \(count) value(s) to redact, but \(match.format.name) cannot " +
                              "re-encode it (\(error))")
        }
    }
}
