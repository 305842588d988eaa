import HTTPTypes
import Parley
import ParleyHTTP
import ParleyCompression

/// What the gateway does with an upstream response, decided from its head and the client's
/// `Accept` before any body byte is read.
enum ResponsePlan {
    /// The client accepts the upstream's type (or the answer has no content): stream it through.
    /// `varies` when another `Accept` could have had it transcoded (the registry decodes its
    /// type): the answer then carries `Vary: Accept`, as a transcoded one does.
    case passThrough(varies: Bool)
    /// A registered format decodes the upstream's type and the client accepts one the registry
    /// encodes (chosen here once): buffer, decode, re-encode.
    case transcode(TranscodePlan)
    /// Neither: 406 listing what the gateway could produce (a 2xx), or the answer passed
    /// through (an error status: the client gets the upstream's own words).
    case notAcceptable(upstreamType: MediaType, producible: [MediaType])
}

/// A transcoding decided for an upstream answer: the type it is decoded from, the encoder chosen
/// for the client, and the type the answer is sent as. Held by reference: a connection's plan is
/// reused by its next answers (`ConnectionMemory`), and each exchange of it, and its transcoding
/// on the thread pool, take it without copying its types.
final class TranscodePlan: Sendable {
    /// The upstream's type.
    let from: MediaType
    /// The encoder the client's `Accept` chose.
    let to: Registry.EncoderChoice
    /// What `to`'s format encodes for: the type a reply in `to`'s type is sent as
    /// (`ParleyServer.sentType(of:as:)`), or `to`'s own when the registry names none.
    let encodingContext: EncodingContext
    /// The `Content-Type` field of the type sent; `nil` when the registry names none (the
    /// server's reply then decides).
    let contentType: HTTPField?

    init(from: MediaType, to: Registry.EncoderChoice, sent: MediaType?, label: String?) {
        self.from = from
        self.to = to
        self.encodingContext = EncodingContext(mediaType: sent ?? to.mediaType)
        self.contentType = label.map { HTTPField(name: .contentType, value: $0) }
    }
}

/// A response pipeline held by reference.
private final class PipelineBox: Sendable {
    let pipeline: ResponsePipeline

    init(_ pipeline: ResponsePipeline) { self.pipeline = pipeline }
}

/// The gateway's format decisions: which responses stream through, which are transcoded, what
/// the upstream is asked for, and the transcoding itself through the one response pipeline.
final class Transcoder: Sendable {
    let registry: Registry
    let server: ParleyServer
    /// The structured types the registry decodes: what the gateway can transcode from.
    let decodableTypes: [MediaType]
    /// The essence of each of ``decodableTypes``, for the upstream's `Accept`.
    private let decodableEssences: [String]
    /// A negotiator over each of ``decodableTypes`` alone, built once: whether a client's
    /// `Accept` takes that type.
    private let decodableTypeNegotiators: [AcceptNegotiator]
    /// The response pipeline for each transcoding limit the configuration names, built once
    /// (a pipeline holds a registry with the limit applied to every format: too much to build
    /// for each request), each in a box of its own so that finding it copies no pipeline.
    private let pipelines: [Int: PipelineBox]
    /// The server decoding request bodies for each transcoding limit: content coding undone
    /// within the limit, every format's body limit at most the limit.
    private let requestServers: [Int: ParleyServer]
    /// For each type the gateway transcodes from (by essence): a negotiator over that type
    /// first, then every structured type the registry encodes, with the encoder of each. It
    /// says which of them a client prefers, the upstream's own winning ties.
    private let preferences: [String: (negotiator: AcceptNegotiator, choices: [Registry.EncoderChoice?])]
    /// For each type the registry encodes, the type a reply in it is sent as
    /// (`ParleyServer.sentType(of:as:)`) and that type's text: made once, not for every
    /// transcoded answer.
    private let sentTypes: [(offer: MediaType, sent: MediaType, label: String)]

    /// Creates the transcoder of `registry`, with pipelines ready for `transcodeLimits` (the
    /// gateway's and its routes' `max_transcode_bytes`).
    init(registry: Registry, transcodeLimits: [Int]) {
        self.registry = registry
        self.server = ParleyServer(registry: registry, contentCodings: .standard)
        self.decodableTypes = registry.formats.filter(\.carriesStructuredValues).flatMap(\.decodableMediaTypes)
            .filter { !$0.isRange }
        self.decodableTypeNegotiators = decodableTypes.map { AcceptNegotiator(offers: [$0]) }
        self.decodableEssences = decodableTypes.map(\.essence)
        var pipelines: [Int: PipelineBox] = [:]
        var requestServers: [Int: ParleyServer] = [:]
        for limit in transcodeLimits where pipelines[limit] == nil {
            pipelines[limit] = PipelineBox(Self.pipeline(registry: registry, limit: limit))
            requestServers[limit] = Self.requestServer(registry: registry, limit: limit)
        }
        self.pipelines = pipelines
        self.requestServers = requestServers
        var preferences: [String: (AcceptNegotiator, [Registry.EncoderChoice?])] = [:]
        for type in decodableTypes where preferences[type.essence] == nil {
            preferences[type.essence] = Self.preference(from: type, registry: registry)
        }
        self.preferences = preferences
        self.sentTypes = registry.formats.flatMap { format in
            format.encodableMediaTypes.filter { !$0.isRange }.map { offer in
                let sent = ParleyServer.sentType(of: format, as: offer)
                return (offer, sent, sent.description)
            }
        }
    }

    /// The offers a client chooses among for an upstream body of `type`: `type`, then every
    /// structured type the registry encodes, each with its encoder.
    private static func preference(
        from type: MediaType, registry: Registry
    ) -> (negotiator: AcceptNegotiator, choices: [Registry.EncoderChoice?]) {
        var seen: Set<String> = [type.essence]
        let encodable = registry.formats.filter(\.carriesStructuredValues).flatMap(\.encodableMediaTypes)
            .filter { !$0.isRange }
        let offers = [(try? MediaType(parsing: type.essence)) ?? type]
            + encodable.filter { seen.insert($0.essence).inserted }
        return (AcceptNegotiator(offers: offers), offers.map { registry.encoder(for: AcceptField($0.essence)) })
    }

    /// The registry with every format's body limit at most `limit`.
    private static func limited(_ registry: Registry, to limit: Int) -> Registry {
        registry.formats.reduce(registry) { registry, format in
            var limits = registry.limits(for: format)
            limits.maxBodyBytes = min(limits.maxBodyBytes, limit)
            return registry.settingLimits(limits, forFormat: format.name)
        }
    }

    private static func requestServer(registry: Registry, limit: Int) -> ParleyServer {
        ParleyServer(registry: limited(registry, to: limit), contentCodings: .standard, maxDecompressedBytes: limit)
    }

    /// A response pipeline that decodes any status with `registry`, every format's body limit
    /// and the decompressed size capped at `limit`.
    private static func pipeline(registry: Registry, limit: Int) -> ResponsePipeline {
        ResponsePipeline(registry: limited(registry, to: limit),
                         validator: ResponseValidator(acceptableStatusCodes: Set(100..<600)),
                                contentCodings: .standard, maxDecompressedBytes: limit)
    }

    // MARK: The upstream's Accept

    /// The client's `Accept` with, at a lower q than any of its own, each type the gateway can
    /// transcode from that the client does not accept already, so an upstream that can serve the
    /// client directly does, and one that cannot sends something the gateway can convert.
    /// `nil` (no field) and a field accepting everything pass unchanged.
    func upstreamAccept(forClient accept: AcceptField) -> String? {
        guard let text = accept.fieldValue, !accept.acceptsAnything else { return accept.fieldValue }
        guard registry.encoder(for: accept) != nil else { return text }   // nothing to transcode into
        var field = text
        // Room for every type the loop may add (with its `, ` and q): the field grows once.
        field.reserveCapacity(text.utf8.count + decodableEssences.reduce(0) { $0 + $1.utf8.count + 10 })
        var q: String?
        for (essence, negotiator) in zip(decodableEssences, decodableTypeNegotiators)
        where negotiator.preferredOfferIndex(for: accept) == nil {
            if q == nil {
                let lowest = accept.lowestQuality ?? 1
                let quality = max(0.001, (lowest * 500).rounded(.down) / 1000)   // half, three decimals
                q = quality == 1 ? "" : ";q=\(Self.format(quality))"
            }
            field += ", "
            field += essence
            field += q ?? ""
        }
        return field
    }

    private static func format(_ quality: Double) -> String {
        var text = String(quality)
        while text.utf8.contains(UInt8(ascii: ".")), text.hasSuffix("0") { text.removeLast() }
        return text
    }

    // MARK: Responses

    /// Decides what to do with `head` for a client that sent `accept` with `method`: with
    /// `mode` ``GatewayConfiguration/TranscodeMode/preferred``, the type the client prefers
    /// among the upstream's and those the registry encodes (the upstream's on a tie); with
    /// ``GatewayConfiguration/TranscodeMode/whenUnacceptable``, the upstream's whenever the
    /// client accepts it.
    func plan(for head: HTTPResponse, method: HTTPRequest.Method, accept: AcceptField,
              mode: GatewayConfiguration.TranscodeMode = .preferred) -> ResponsePlan {
        guard head.status.kind != .informational, let label = head.headerFields.combinedValue(of: .contentType),
              let upstreamType = try? MediaType(parsing: label) else { return .passThrough(varies: false) }
        let transcodable = registry.decoder(for: upstreamType)?.format.carriesStructuredValues == true
        let passThrough = ResponsePlan.passThrough(varies: transcodable)
        guard accept.fieldValue != nil, method != .head, head.status != .noContent, head.status != .notModified,
              head.status != .partialContent else { return passThrough }
        if mode == .preferred, transcodable {
            // Types beyond the registry's own (`application/problem+json`) are rare: built here.
            let preference = preferences[upstreamType.essence]
                ?? Self.preference(from: upstreamType, registry: registry)
            guard let index = preference.negotiator.preferredOfferIndex(for: accept) else {
                return head.status.kind == .successful
                    ? .notAcceptable(upstreamType: upstreamType, producible: producible(from: upstreamType))
                    : passThrough
            }
            guard index > 0, let choice = preference.choices[index] else { return passThrough }
            return .transcode(transcodePlan(from: upstreamType, to: choice))
        }
        if AcceptNegotiator(offers: [upstreamType]).preferredOfferIndex(for: accept) != nil { return passThrough }
        guard transcodable else {
            return head.status.kind == .successful
                ? .notAcceptable(upstreamType: upstreamType, producible: [upstreamType]) : passThrough
        }
        guard let choice = registry.encoder(for: accept) else {
            return head.status.kind == .successful
                ? .notAcceptable(upstreamType: upstreamType, producible: producible(from: upstreamType))
                : passThrough
        }
        return .transcode(transcodePlan(from: upstreamType, to: choice))
    }

    /// The plan of transcoding from `type` to `choice`, with the type sent for it.
    func transcodePlan(from type: MediaType, to choice: Registry.EncoderChoice) -> TranscodePlan {
        let sent = sentTypes.first { $0.offer == choice.mediaType }
        return TranscodePlan(from: type, to: choice, sent: sent?.sent, label: sent?.label)
    }

    /// What an upstream body of `type` can be turned into: itself, then every structured type
    /// the registry encodes, each once.
    func producible(from type: MediaType) -> [MediaType] {
        var seen: Set<String> = [type.essence]
        return [(try? MediaType(parsing: type.essence)) ?? type]
            + registry.formats.filter(\.carriesStructuredValues).flatMap(\.encodableMediaTypes)
            .filter { seen.insert($0.essence).inserted }
    }

    /// Decodes an upstream body (its `Content-Encoding` undone, within `limit`) with the response
    /// pipeline and encodes it for the client as `plan` says, with `accept` (the client's, scanned
    /// once) for the fallback when the plan's type cannot hold the value.
    ///
    /// - Returns: The new head (type, length, `Vary`, weak `ETag`, no coding) and body.
    /// - Throws: ``ParleyError`` from the pipeline (the body does not decode, or is over a limit)
    ///   or from encoding.
    func transcode(_ head: HTTPResponse, body: [UInt8], for request: HTTPRequest, as plan: TranscodePlan,
                   accepting accept: AcceptField, limit: Int) throws(ParleyError) -> (HTTPResponse, [UInt8]) {
        try encode(try decode(head, body: body, for: request, limit: limit), like: head, for: request, as: plan,
                   accepting: accept, limit: limit)
    }

    /// Decodes an upstream body with the response pipeline, its `Content-Encoding` undone, within `limit`.
    func decode(_ head: HTTPResponse, body: [UInt8], for request: HTTPRequest,
                limit: Int) throws(ParleyError) -> Value {
        guard let box = pipelines[limit] else {
            return try Self.pipeline(registry: registry, limit: limit).run(head, body: body, request: request).get()
        }
        return try box.pipeline.run(head, body: body, request: request).get()
    }

    /// Encodes a decoded upstream value for the client as `plan` says (see
    /// ``transcode(_:body:for:as:accepting:limit:)``), the fields of `head` adjusted to it.
    ///
    /// The reply is `ParleyServer`'s with no language, charset or coding offered: the plan's format
    /// encodes the value as the type it is sent as; when it cannot, the server's reply falls back
    /// to another type the client accepts (or refuses with 406).
    func encode(_ value: Value, like head: HTTPResponse, for request: HTTPRequest, as plan: TranscodePlan,
                accepting accept: AcceptField, limit: Int) throws(ParleyError) -> (HTTPResponse, [UInt8]) {
        let (body, contentType) = try encoded(value, as: plan, for: request, accepting: accept, limit: limit)
        var fields = HTTPFields()
        // The kept fields and the three set below, in one allocation.
        fields.reserveCapacity(head.headerFields.count + 3)
        var varies = false
        for field in head.headerFields {
            if field.name.matches(.vary) { varies = true }
            if !Self.isReplacedByTranscoding(field.name) { fields.append(field) }
        }
        if let etag = head.headerFields.combinedValue(of: .eTag), Self.isStrong(eTag: etag.utf8) {
            fields[.eTag] = "W/" + etag
        }
        // The fields below were left out above: appended, as setting each would.
        fields.append(contentType)
        fields.append(HTTPField(name: .contentLength, value: String(body.count)))
        if varies {
            fields.append(HTTPField(name: .vary, value: Self.vary(addingAcceptTo: head.headerFields[values: .vary])))
        } else {
            fields.append(Self.acceptVary)
        }
        // The upstream's head with its fields replaced: its status is kept as it is, not made again.
        var response = head
        response.headerFields = fields
        return (response, body)
    }

    /// `value` encoded as `plan` says, at most `limit` bytes, with its `Content-Type` field: by
    /// the chosen format directly, else (it cannot hold the value) by the server's reply, which
    /// falls back.
    private func encoded(_ value: Value, as plan: TranscodePlan, for request: HTTPRequest,
                         accepting accept: AcceptField, limit: Int) throws(ParleyError) -> ([UInt8], HTTPField) {
        if let contentType = plan.contentType,
           let body = try? plan.to.format.encode(value, context: plan.encodingContext) {
            try Self.check(body, of: plan.encodingContext.mediaType, within: limit)
            return (body, contentType)
        }
        let reply = try server.reply(with: value, as: plan.to, for: request, accepting: accept)
        try Self.check(reply.body, of: reply.contentType, within: limit)
        let label = reply.headerFields.combinedValue(of: .contentType) ?? reply.contentType.description
        return (reply.body, HTTPField(name: .contentType, value: label))
    }

    /// Throws when a transcoded `body` of `type` is over `limit` bytes.
    private static func check(_ body: [UInt8], of type: MediaType, within limit: Int) throws(ParleyError) {
        guard body.count <= limit else {
            throw ParleyError(.limitExceeded, "the transcoded \(type.essence) body is over the "
                              + "gateway's transcoding limit of \(limit) bytes (max_transcode_bytes)")
        }
    }

    /// The `Vary` of an answer the client's `Accept` decided, whose upstream sent `values`: them
    /// with `Accept` added, unless they name it (or `*`) already.
    static func vary(addingAcceptTo values: [String]) -> String {
        guard !values.isEmpty else { return "Accept" }
        let names = values.flatMap { $0.split(separator: ",") }
            .map { String($0.trimmingCharacters(inSpacesAndTabs: ())) }
        let named = names.contains { $0 == "*" || $0.lowercased() == "accept" }
        return (named ? names : names + ["Accept"]).joined(separator: ", ")
    }

    private static let acceptVary = HTTPField(name: .vary, value: "Accept")

    /// Makes the `Vary` of a passed-through answer name `Accept` (see ``vary(addingAcceptTo:)``).
    static func varyOnAccept(_ fields: inout HTTPFields) {
        let values = fields[values: .vary]
        if values.isEmpty {
            fields.append(acceptVary)
        } else {
            fields[.vary] = vary(addingAcceptTo: values)
        }
    }

    /// Whether the `ETag` value `value` is strong: a transcoded body's is made weak (`W/`), as it is
    /// no longer the upstream's bytes (RFC 9110 §8.8.1).
    static func isStrong(eTag value: some Collection<UInt8>) -> Bool {
        !value.starts(with: "W/".utf8)
    }

    /// Whether a re-encoded body no longer matches the field `name`.
    static func isReplacedByTranscoding(_ name: HTTPField.Name) -> Bool {
        name.canonicalName.withUTF8Bytes { isReplacedByTranscoding($0) }
    }

    /// Whether a re-encoded body no longer matches the field whose name's bytes are `name` (in any
    /// case): the one rule, for a name read from a head's bytes (``ForwardedFieldLines``) as for an
    /// `HTTPField.Name`. Compared only with the names of its length, which most names have none of.
    static func isReplacedByTranscoding(_ name: UnsafeRawBufferPointer) -> Bool {
        switch name.count {
        case 4: HTTP1Syntax.is(name, "vary")
        case 6: HTTP1Syntax.is(name, "digest")
        case 11: HTTP1Syntax.is(name, "content-md5") || HTTP1Syntax.is(name, "repr-digest")
        case 12: HTTP1Syntax.is(name, "content-type")
        case 13: HTTP1Syntax.is(name, "accept-ranges") || HTTP1Syntax.is(name, "content-range")
        case 14: HTTP1Syntax.is(name, "content-length") || HTTP1Syntax.is(name, "content-digest")
        case 16: HTTP1Syntax.is(name, "content-encoding")
        default: false
        }
    }


    // MARK: Request bodies

    /// Whether a request body labelled `label` must be transcoded for an upstream accepting
    /// `types` (empty: anything goes).
    func needsRequestTranscoding(label: String?, types: [MediaType]) -> Bool {
        guard !types.isEmpty, let label, let type = try? MediaType(parsing: label) else { return false }
        return MediaTypeMatcher(types).match(type) == nil
    }

    /// Decodes a request body by its `Content-Type` (its coding undone) and encodes it as the
    /// first of `types` the registry encodes.
    ///
    /// - Returns: The new `Content-Type` and body.
    /// - Throws: ``ParleyError``: 415 when the body's type does not decode or no type of `types`
    ///   encodes, 400 when the body does not decode.
    func transcodeRequestBody(_ body: [UInt8], of request: HTTPRequest, to types: [MediaType],
                              limit: Int) throws(ParleyError) -> (MediaType, [UInt8]) {
        guard let target = types.first(where: { registry.encoder(forAccept: $0.description) != nil }) else {
            throw ParleyError.unsupportedMediaType(request.headerFields.combinedValue(of: .contentType) ?? "",
                                                   acceptable: types)
        }
        if let label = request.headerFields.combinedValue(of: .contentType), let type = try? MediaType(parsing: label),
           let match = registry.decoder(for: type), !match.format.carriesStructuredValues {
            throw ParleyError.unsupportedMediaType(label, acceptable: types + decodableTypes)
        }
        let decoder = requestServers[limit] ?? Self.requestServer(registry: registry, limit: limit)
        let value = try decoder.decodeValue(body, of: request)
        let reply = try server.reply(with: value, accepting: target.description)
        guard reply.body.count <= limit else {
            throw ParleyError(.limitExceeded, "the transcoded request body is over the gateway's transcoding limit "
                              + "of \(limit) bytes (max_transcode_bytes)")
        }
        return (reply.contentType, reply.body)
    }
}
