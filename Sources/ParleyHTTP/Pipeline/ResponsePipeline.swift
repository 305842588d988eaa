public import HTTPTypes
public import Parley

/// The one sequence of steps every response goes through, whoever handles it: the response
/// serializers, `Client`, replay, `parley check` and the server integrations run this code and
/// differ only in the options they pass.
///
/// 1. **Content coding**: `Content-Encoding` is undone with ``contentCodings`` (a body stored
///    already decoded is noted and passed on), within the decoder's body limit.
/// 2. **Status and empty body**: the status must be acceptable (``ResponseValidator``); answers
///    without content (HEAD, 1xx, 204, 205, 304) and the `EmptyBodyPolicy`'s empty bodies stop
///    here with their value; a 206 byte range is kept as bytes.
/// 3. **Content type**: `Content-Type` is parsed, checked against the acceptable types and
///    matched to a registered format.
/// 4. **Charset**: a `charset` the core's `Charset` does not know is converted to UTF-8 by
///    ``charsetConverter``.
/// 5. **Mislabel sniffing**: the formats say what the bytes look like (`Registry.mislabelling(of:labelledAs:)`).
/// 6. **Decode** with the format's limits.
///
/// Each step reports a ``Finding``; a step that cannot go on stops with a `ParleyError`. An
/// unacceptable status stops the pipeline too, but the error body is still decoded so the error
/// carries it (`ParleyError.decodedBody`, and `ParleyError.problem` for RFC 9457 problem
/// details).
///
/// ```swift
/// let pipeline = ResponsePipeline(registry: .linked)
/// let outcome = pipeline.run(response, body: body, request: request)
/// for finding in outcome.findings { print(finding) }
/// let value = try outcome.get()
/// ```
public struct ResponsePipeline: Sendable {
    /// The formats bodies decode with, and their limits.
    public var registry: Registry
    /// Acceptable statuses and content types, and the empty-body policy.
    public var validator: ResponseValidator
    /// The content codings undone in step 1. Default none (the core has no compression);
    /// `ParleyCompression` adds gzip, deflate, br and zstd as `.standard`.
    public var contentCodings: ContentCodings
    /// Converts charsets the core does not know. Default ``SystemCharsetConverter``.
    public var charsetConverter: any CharsetConverting
    /// The most bytes a `Content-Encoding` may decompress to; the matched format's
    /// `DecodingLimits.maxBodyBytes` bounds it too. Default 256 MiB.
    public var maxDecompressedBytes: Int
    /// Whether a mislabelled body that fails to decode as labelled but decodes as what it really
    /// is (a JPEG labelled `image/png`) is accepted, with a warning. Default `false`.
    public var acceptsMislabelledBodies: Bool
    /// Whether a `Content-Length` that disagrees with the body is reported (recordings; a live
    /// transport has framed the body already). Default `false`.
    public var checksContentLength: Bool

    /// Creates a pipeline.
    public init(registry: Registry, validator: ResponseValidator = ResponseValidator(),
                contentCodings: ContentCodings = .none,
                charsetConverter: any CharsetConverting = SystemCharsetConverter(),
                maxDecompressedBytes: Int = DecodingLimits.standard.maxDecompressedBytes,
                acceptsMislabelledBodies: Bool = false, checksContentLength: Bool = false) {
        self.registry = registry
        self.validator = validator
        self.contentCodings = contentCodings
        self.charsetConverter = charsetConverter
        self.maxDecompressedBytes = maxDecompressedBytes
        self.acceptsMislabelledBodies = acceptsMislabelledBodies
        self.checksContentLength = checksContentLength
    }

    // MARK: Running

    /// Runs every step and decodes the body to a `Value`.
    public func run(_ response: HTTPResponse, body: [UInt8], request: HTTPRequest?) -> ResponseOutcome<Value> {
        run(response, body: body, request: request, decoding: valueDecoding)
    }

    /// Runs every step and decodes the body into `type`.
    ///
    /// A `Decodable` type is never read from the text or raw formats: a body labelled
    /// `text/plain` or `application/octet-stream` stops with
    /// `ParleyError.Code.unacceptableContentType`, saying what the body looks like.
    public func run<T: Decodable & Sendable>(_ type: T.Type, decoder: ValueDecoder = ValueDecoder(),
                                             _ response: HTTPResponse, body: [UInt8],
                                             request: HTTPRequest?) -> ResponseOutcome<T> {
        let decoding = Decoding<T>(
            body: { match, bytes, contentType throws(ParleyError) in
                if !match.format.carriesStructuredValues {
                    throw structuredFormatRequired(T.self, contentType: contentType, body: bytes)
                }
                return try match.decode(T.self, from: bytes, contentType: contentType, decoder: decoder)
            },
            value: { value throws(ParleyError) in
                do {
                    return try decoder.decode(T.self, from: value)
                } catch {
                    throw ParleyError(.decodingFailed, "cannot decode \(T.self): \(error)", underlying: [error])
                }
            })
        return run(response, body: body, request: request, decoding: decoding)
    }

    /// Step 1's content coding, with this pipeline's codings and decompression bound.
    public var contentCodingStep: ContentCodingStep {
        ContentCodingStep(contentCodings, maxDecompressedBytes: maxDecompressedBytes)
    }

    /// How the last step turns bytes (or a value standing for an empty body) into the output.
    struct Decoding<Output> {
        var body: (Registry.DecoderMatch, [UInt8], MediaType) throws(ParleyError) -> Output
        var value: (Value) throws(ParleyError) -> Output
    }

    private var valueDecoding: Decoding<Value> {
        Decoding(body: { match, bytes, contentType throws(ParleyError) in
                     try match.decode(bytes, contentType: contentType)
                 },
                 value: { $0 })
    }

    private func run<Output>(_ response: HTTPResponse, body: [UInt8], request: HTTPRequest?,
                             decoding: Decoding<Output>) -> ResponseOutcome<Output> {
        var report = PipelineReport(response: response, body: body)
        undoContentCoding(&report, request: request)
        if report.error != nil { return report.outcome(nil) }

        let status = report.response.status
        guard validator.acceptableStatusCodes.contains(status.code) else {
            let error = ParleyError(.unacceptableStatus, "unacceptable status \(status.code) \(status.reasonPhrase)",
                                    receivedContentType: report.response.headerFields.combinedValue(of: .contentType))
            report.stop(.unacceptableStatus,
                        "status \(status.code) is not acceptable (acceptable: " +
                        "\(validator.acceptableStatusDescription))", error)
            // The error body is still decoded, so the error can carry what it says.
            var errorBody = report
            errorBody.error = nil
            let value = decodeContent(&errorBody, status: status.code, request: request, decoding: valueDecoding)
            report.findings = errorBody.findings
            report.formatName = errorBody.formatName
            report.error?.decodedBody = value
            return report.outcome(nil)
        }
        let output = decodeContent(&report, status: status.code, request: request, decoding: decoding)
        return report.outcome(output)
    }

    // MARK: Steps

    /// Step 1: undoes `Content-Encoding` with ``ContentCodingStep``, within the matched format's
    /// body limit.
    private func undoContentCoding(_ report: inout PipelineReport, request: HTTPRequest?) {
        let stored = report.body
        var storedDecoded = false
        if report.response.headerFields.contains(.contentEncoding) {
            do {
                let undone = try contentCodingStep.undo(stored, fields: report.response.headerFields,
                                                        registry: registry)
                for token in undone.storedDecoded {
                    report.add(.storedDecoded, "Content-Encoding says \(token) but the body is stored decoded")
                }
                storedDecoded = !undone.storedDecoded.isEmpty
                report.response.headerFields = undone.headerFields
                report.body = undone.body
            } catch {
                let kind: Finding.Kind = switch error.code {
                case .unsupportedContentEncoding: .unsupportedEncoding
                case .limitExceeded: .limitExceeded
                default: .corruptEncoding
                }
                report.stop(kind, error.message, error)
                return
            }
        }
        // The Content-Length of an answer without content (HEAD, 304) is the representation's.
        if checksContentLength, !storedDecoded,
           !EmptyBodyPolicy.hasNoContent(status: report.response.status.code, requestMethod: request?.method),
           let length = report.response.headerFields.combinedValue(of: .contentLength),
           let declared = Int(length.trimmingSpacesAndTabs()),
           declared != stored.count {
            report.add(.lengthMismatch, "Content-Length is \(declared) but the stored body has \(stored.count) bytes")
        }
    }

    /// Steps 2 (body presence) to 6, for a response of `status` (read once: `HTTPResponse`
    /// parses it from its text on each read).
    private func decodeContent<Output>(_ report: inout PipelineReport, status: Int, request: HTTPRequest?,
                                       decoding: Decoding<Output>) -> Output? {
        // Step 2: body presence.
        let noContent = EmptyBodyPolicy.hasNoContent(status: status, requestMethod: request?.method)
        // Made only when said: a string per response otherwise.
        func absence() -> String {
            request?.method == .head ? "an answer to HEAD has no content" : "a \(status) response has no content"
        }
        if noContent, !report.body.isEmpty {
            report.add(.noBody, "\(absence()); the \(report.body.count) stored bytes are not decoded")
            report.body = []
        }
        if report.body.isEmpty,
           let value = validator.emptyBodyPolicy.emptyValue(for: report.response, request: request) {
            if report.findings.last?.kind != .noBody {
                report.add(.noBody, noContent ? absence() : "an empty body, accepted by the empty-body policy")
            }
            return finish(&report) { () throws(ParleyError) in try decoding.value(value) }
        }
        if status == 206 {
            report.add(.noBody,
                       "206 Partial Content holds a byte range, not a whole representation; kept as bytes, not decoded")
            let bytes = report.body
            return finish(&report) { () throws(ParleyError) in try decoding.value(.bytes(bytes)) }
        }

        // Step 3: Content-Type.
        guard let received = report.response.headerFields.combinedValue(of: .contentType) else {
            let looks = registry.sniff(report.body).map { " (it looks like \($0.mediaType))" } ?? ""
            report.stop(.missingContentType, "a \(report.body.count)-byte body without a Content-Type\(looks)",
                        ParleyError(.missingContentType, "response has no Content-Type\(looks)",
                                    acceptableTypes: acceptableTypes))
            return nil
        }
        let labelled: MediaType
        do {
            labelled = try MediaType(parsing: received)
        } catch {
            report.stop(.malformedContentType, "Content-Type \"\(received)\": \(error)",
                        ParleyError(.malformedContentType, "malformed Content-Type '\(received)': \(error)",
                                    receivedContentType: received, underlying: [error]))
            return nil
        }
        guard validator.accepts(contentType: labelled) else {
            let acceptable = acceptableTypes.map(\.description).joined(separator: ", ")
            report.stop(.unknownContentType, "\(labelled.essence) is not acceptable here (acceptable: \(acceptable))",
                        ParleyError(.unacceptableContentType,
                                    "unacceptable content type '\(received)'; acceptable: \(acceptable)",
                                    receivedContentType: received, acceptableTypes: acceptableTypes))
            return nil
        }
        guard let match = registry.decoder(for: labelled) else {
            let looks = registry.sniff(report.body).map { "; it looks like \($0.mediaType)" } ?? ""
            let registered = registry.formats.map(\.name).joined(separator: ", ")
            report.stop(.unknownContentType, "no registered format decodes \(labelled.essence)\(looks)",
                        ParleyError(.unacceptableContentType,
                                    "unacceptable content type '\(received)' (status \(status)); acceptable: " +
                                    "\(acceptableTypes.map(\.description).joined(separator: ", ")) (registered " +
                                    "formats: \(registered))\(looks)",
                                    receivedContentType: received, acceptableTypes: acceptableTypes))
            return nil
        }
        report.formatName = match.format.name

        // Step 4: charset.
        var contentType = labelled
        if let charset = labelled.charset, Charset(name: charset) == nil {
            do {
                report.body = try charsetConverter.utf8(from: report.body, charset: charset,
                                                        maximumBytes: match.limits.maxBodyBytes)
                contentType = labelled.settingParameter("charset", to: "utf-8")
            } catch {
                let kind: Finding.Kind, code: ParleyError.Code
                switch error {
                case .unknownCharset: (kind, code) = (.unsupportedCharset, .decodingFailed)
                case .invalidBytes: (kind, code) = (.decodeFailed, .decodingFailed)
                case .limitExceeded: (kind, code) = (.limitExceeded, .limitExceeded)
                }
                report.stop(kind, error.description,
                        ParleyError(code, error.description, receivedContentType: received, format: match.format.name))
                return nil
            }
        }

        // Step 5: what the bytes look like.
        let mislabel = registry.mislabelling(of: report.body, labelledAs: labelled, decodedBy: match)

        // Step 6: decode.
        let body = report.body
        do {
            let output = try decoding.body(match, body, contentType)
            if let mislabel {
                report.add(.mislabelledBody, "labelled \(labelled.essence) but looks like \(mislabel.mediaType)")
            }
            return output
        } catch {
            if acceptsMislabelledBodies, let mislabel, let real = registry.decoder(for: mislabel.mediaType),
               let output = try? decoding.body(real, body, mislabel.mediaType) {
                report.formatName = real.format.name
                report.add(.mislabelledBody,
                           "labelled \(labelled.essence) but is \(mislabel.mediaType) (decodes as that)")
                return output
            }
            if let mislabel {
                report.add(.mislabelledBody, "labelled \(labelled.essence) but looks like \(mislabel.mediaType)")
            }
            report.stop(error.code == .limitExceeded ? .limitExceeded : .decodeFailed, Self.describe(error), error)
            return nil
        }
    }

    /// The output `make` gives, or nil after recording its error as a decode failure.
    private func finish<Output>(_ report: inout PipelineReport, _ make: () throws(ParleyError) -> Output) -> Output? {
        do {
            return try make()
        } catch {
            report.stop(.decodeFailed, Self.describe(error), error)
            return nil
        }
    }

    private var acceptableTypes: [MediaType] {
        validator.acceptableContentTypes ?? registry.decodableMediaTypes
    }

    private func structuredFormatRequired<T>(_ type: T.Type, contentType: MediaType, body: [UInt8]) -> ParleyError {
        let structured = registry.formats.filter { $0.carriesStructuredValues }.map(\.name)
        let looks = registry.sniff(body).map { "; the body looks like \($0.mediaType)" } ?? ""
        let needs = structured.isEmpty ? "no structured format is registered"
                                       : "registered structured formats: \(structured.joined(separator: ", "))"
        return ParleyError(.unacceptableContentType,
                           "the response is labelled \(contentType.essence), but \(T.self) needs a structured format " +
                           "(\(needs))\(looks)",
                           receivedContentType: contentType.description, acceptableTypes: acceptableTypes)
    }

    /// A finding's message for an error: its message, with its location when that is not in it.
    static func describe(_ error: ParleyError) -> String {
        var text = error.message
        if let location = error.location, !text.contains("\(location)") { text += " (at \(location))" }
        return text
    }
}
