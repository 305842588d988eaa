import Parley
import ParleyCompression

/// Checks one recorded response the way a client would handle it: status, `Content-Type`,
/// `Content-Encoding`, charset, then the registered decoder with its limits.
public struct ExchangeChecker: Sendable {
    /// The options in force.
    public var options: CheckOptions

    /// Creates a checker.
    public init(options: CheckOptions) {
        self.options = options
    }

    /// Checks `exchange` from the recording at `path` of kind `kind`.
    public func check(_ exchange: RecordedExchange, path: String, kind: RecordingKind) -> ExchangeResult {
        let response = exchange.response
        var result = ExchangeResult(path: path, index: exchange.index, method: exchange.request.method,
                                    url: exchange.request.url, status: response.status,
                                    contentType: response.headers["Content-Type"], format: nil,
                                    bodyBytes: response.body?.count ?? 0, findings: [], value: nil)
        func add(_ kind: Finding.Kind, _ message: String) {
            result.findings.append(Finding(kind, message, severity: options.severity(of: kind)))
        }
        for note in response.readingNotes {
            result.findings.append(Finding(note.kind, note.message, severity: options.severities[note.kind] ?? note.severity))
        }

        if let filter = options.acceptableStatuses, !filter.accepts(response.status) {
            add(.unacceptableStatus, "status \(response.status) is not in \(filter)")
        }
        guard let stored = response.body, !stored.isEmpty, hasBody(exchange) else {
            add(.noBody, response.body == nil ? "no body was recorded" : "no body")
            return result
        }
        if response.status == 206 {
            add(.noBody, "206 Partial Content holds a byte range, not a whole representation; not decoded")
            return result
        }
        guard let contentTypeText = result.contentType else {
            let looks = BodySniffer.sniff(stored).map { " (it looks like \($0))" } ?? ""
            add(.missingContentType, "a \(stored.count)-byte body without a Content-Type\(looks)")
            return result
        }
        let labelled: MediaType
        do {
            labelled = try MediaType(parsing: contentTypeText)
        } catch {
            add(.malformedContentType, "Content-Type \"\(contentTypeText)\": \(error)")
            return result
        }

        guard var body = undoContentEncoding(stored, response: response, kind: kind, add: add) else { return result }

        guard let match = options.registry.decoder(for: labelled) else {
            let looks = BodySniffer.sniff(body).map { "; it looks like \($0)" } ?? ""
            add(.unknownContentType, "no registered format decodes \(labelled.essence)\(looks)")
            return result
        }
        result.format = match.format.name

        var contentType = labelled
        if let charset = labelled.charset, Charset(name: charset) == nil {
            switch convertCharset(body, charset: charset, of: labelled) {
            case .converted(let converted, let relabelled):
                body = converted
                contentType = relabelled
            case .unknown(let finding), .invalid(let finding):
                add(finding.kind, finding.message)
                return result
            }
        }

        let sniffed = BodySniffer.sniff(body)
        let mislabelled = sniffed.flatMap { BodySniffer.contradicts(label: labelled, sniffed: $0) ? $0 : nil }
        do {
            result.value = try match.decode(body, contentType: contentType)
            if let mislabelled { add(.mislabelledBody, "labelled \(labelled.essence) but looks like \(mislabelled)") }
        } catch {
            if options.acceptsMislabelledBodies, let mislabelled, let real = try? MediaType(parsing: mislabelled),
               let realMatch = options.registry.decoder(for: real),
               let value = try? realMatch.decode(body, contentType: real) {
                result.value = value
                result.format = realMatch.format.name
                add(.mislabelledBody, "labelled \(labelled.essence) but is \(mislabelled) (decodes as that)")
                return result
            }
            if let mislabelled { add(.mislabelledBody, "labelled \(labelled.essence) but looks like \(mislabelled)") }
            add(error.code == .limitExceeded ? .limitExceeded : .decodeFailed, Self.describe(error))
        }
        return result
    }

    /// Whether the response can carry a body (RFC 9110 §6.4.1).
    private func hasBody(_ exchange: RecordedExchange) -> Bool {
        let status = exchange.response.status
        return exchange.request.method != "HEAD" && !(100..<200).contains(status) && status != 204 && status != 304
    }

    /// The body with its `Content-Encoding` undone, or `nil` after adding the finding that
    /// stops the check.
    private func undoContentEncoding(_ stored: [UInt8], response: RecordedResponse, kind: RecordingKind,
                                     add: (Finding.Kind, String) -> Void) -> [UInt8]? {
        let tokens = response.headers.values(for: "Content-Encoding")
            .flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces().lowercased() }.filter { !$0.isEmpty }
        var body = stored
        var decodedAsStored = false
        for token in tokens.reversed() {
            guard let coding = ContentCoding(token: token) else {
                add(.unsupportedEncoding, "Content-Encoding \(token) is not one Parley decodes")
                return nil
            }
            let looksCoded = switch coding {
            case .gzip: Decompressor.looksLikeGzip(body)
            case .deflate: Decompressor.looksLikeZlib(body)
            case .identity: false
            }
            guard looksCoded else {
                if coding != .identity {
                    add(.storedDecoded, "Content-Encoding says \(coding) but the body is stored decoded")
                    decodedAsStored = true
                }
                continue
            }
            do {
                body = try Decompressor(maximumBytes: options.maxDecompressedBytes).decompress(body, coding: coding)
            } catch {
                if case .limitExceeded = error.reason {
                    add(.limitExceeded, error.description)
                } else {
                    add(.corruptEncoding, error.description)
                }
                return nil
            }
        }
        if kind != .rawHTTP, !decodedAsStored, let declared = response.headers["Content-Length"].flatMap({ Int($0.trimmingSpaces()) }),
           declared != stored.count {
            add(.lengthMismatch, "Content-Length is \(declared) but the stored body has \(stored.count) bytes")
        }
        return body
    }

    private enum CharsetOutcome {
        case converted([UInt8], MediaType)
        case unknown(Finding)
        case invalid(Finding)
    }

    private func convertCharset(_ body: [UInt8], charset: String, of type: MediaType) -> CharsetOutcome {
        do {
            let converted = try CharsetConverter.utf8(from: body, charset: charset)
            let parameters = type.parameters.map { $0.name == "charset" ? MediaType.Parameter(name: "charset", value: "utf-8") : $0 }
            return .converted(converted, MediaType(type: type.type, subtype: type.subtype, parameters: parameters))
        } catch {
            switch error {
            case .unknownCharset:
                return .unknown(Finding(.unsupportedCharset, "charset \(charset) is not one Parley or iconv converts"))
            case .invalidBytes(let offset):
                return .invalid(Finding(.decodeFailed, "byte \(offset) is not valid \(charset)"))
            }
        }
    }

    static func describe(_ error: ParleyError) -> String {
        var text = error.message
        if let location = error.location, !text.contains("\(location)") { text += " (at \(location))" }
        return text
    }
}
