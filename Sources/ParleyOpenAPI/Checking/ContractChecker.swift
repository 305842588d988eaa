public import Parley
import ParleyCompression
public import ParleyHTTP
import ParleyJSON
import ParleySchema

/// Checks exchanges against an ``OpenAPIDocument``: the operation they match, then the request
/// (parameters, body) and the response (status, `Content-Type`, headers, body). Nothing passes
/// silently: what the document does not declare is an error, and what it declares but cannot be
/// checked is a ``ContractFinding/Kind/unchecked`` warning.
///
/// ```swift
/// let findings = checker.check(request: request, response: response)
/// ```
public struct ContractChecker: Sendable {
    /// The document checked against.
    public let document: OpenAPIDocument
    /// The formats bodies decode with.
    public let registry: Registry
    /// Parameter deserialization and body shaping.
    /// The most schema violations reported per body or parameter; default 20.
    public var maxSchemaFindings = 20
    /// Undoes a request body's `Content-Encoding` before it is checked; default: gzip, deflate,
    /// br and zstd, within 256 MiB.
    public var contentCodingStep = ContentCodingStep(.standard)

    /// Creates a checker.
    public init(document: OpenAPIDocument, registry: Registry) {
        self.document = document
        self.registry = registry
    }

    /// Everything wrong with an exchange: ``ContractFinding/Kind/noOperation`` alone when it
    /// matches no operation, else the request's findings then the response's.
    public func check(request: ContractRequest, response: ContractResponse) -> [ContractFinding] {
        let (path, query) = request.pathAndQuery
        guard let match = document.operation(method: request.method, path: path) else {
            return [ContractFinding(.noOperation,
                                    "\(request.method.uppercased()) \(path) matches no path of the document")]
        }
        guard let operation = match.operation else {
            return [ContractFinding(.noOperation,
                                    "\(request.method.uppercased()) \(path) matches \(match.pathTemplate), "
                                    + "which declares \(match.allowedMethods.joined(separator: ", ")) only")]
        }
        var findings = checkRequest(request, query: query, match: match, operation: operation)
        findings.appendAny(checkResponse(response, operation: operation, method: request.method))
        return findings
    }

    // MARK: - Requests

    /// The request's parameter and body findings against `operation`.
    public func checkRequest(_ request: ContractRequest, match: OperationMatch, operation: CompiledOperation)
        -> [ContractFinding]
    {
        checkRequest(request, query: request.pathAndQuery.query, match: match, operation: operation)
    }

    /// ``checkRequest(_:match:operation:)`` with the target's query already split off.
    func checkRequest(_ request: ContractRequest, query: Substring, match: OperationMatch,
                      operation: CompiledOperation) -> [ContractFinding] {
        var findings: [ContractFinding] = []
        let input = ParameterInput(pathVariables: match.variables, query: query, headerFields: request.headers)
        for parameter in operation.parameters {
            // Built only for a finding: a valid parameter needs no label.
            func label() -> String {
                "\(parameter.location.rawValue) parameter '\(parameter.name)' of \(operation.name)"
            }
            let value: Value?
            do {
                value = try parameter.value(in: input)
            } catch {
                findings.append(ContractFinding(.request, "\(label()) does not read: \(error)"))
                continue
            }
            guard let value else {
                if parameter.isRequired {
                    findings.append(ContractFinding(.request, "\(label()) is required and missing"))
                }
                continue
            }
            if let schema = parameter.schema {
                findings.appendAny(violations(of: value, schema, kind: .request, label: label(),
                                              options: .init(direction: .request, coercesStrings: true)))
            }
        }
        findings.appendAny(checkRequestBody(request, operation: operation))
        return findings
    }

    func checkRequestBody(_ request: ContractRequest, operation: CompiledOperation) -> [ContractFinding] {
        let contentType = request.headers.firstValue(named: "Content-Type")
        guard let body = operation.requestBody else {
            if request.body.isEmpty { return [] }
            return [ContractFinding(.request, "\(operation.name) declares no request body, but one was sent")]
        }
        guard !request.body.isEmpty || contentType != nil else {
            return body.isRequired ? [ContractFinding(.request, "\(operation.name) requires a request body")] : []
        }
        let undone = undoContentCoding(of: request, label: "the request body of \(operation.name)")
        if let finding = undone.finding { return [finding] }
        return checkBody(undone.body, decoded: nil, contentType: contentType, content: body.content,
                         direction: .request, label: "the request body of \(operation.name)")
    }

    // MARK: - Responses

    /// The response's status, header and body findings against `operation`.
    public func checkResponse(_ response: ContractResponse, operation: CompiledOperation, method: String)
        -> [ContractFinding]
    {
        guard let declared = operation.responses.response(for: response.status) else {
            return [ContractFinding(.status, "status \(response.status) is not declared for \(operation.name) "
                                    + "(declared: \(operation.responses.keys.joined(separator: ", ")))")]
        }
        // Built only for a finding: a valid response needs no label.
        func label() -> String { "the \(response.status) response of \(operation.name)" }
        var findings: [ContractFinding] = []
        let headerInput = ParameterInput(headerFields: response.headers)
        func missing(_ header: CompiledHeader) -> ContractFinding {
            ContractFinding(.header, "\(label()) lacks the required header \(header.name)")
        }
        for header in declared.headers {
            // A header with a schema is looked up once, by its reader; one without is only looked for.
            guard let schema = header.schema, header.reader != nil else {
                if header.isRequired, headerInput.headerLines(named: header.name) == nil {
                    findings.append(missing(header))
                }
                continue
            }
            do {
                guard let value = try header.value(in: headerInput) else {
                    if header.isRequired { findings.append(missing(header)) }
                    continue
                }
                findings.appendAny(violations(of: value, schema, kind: .header,
                                              label: "header \(header.name) of \(label())",
                                              options: .init(direction: .response, coercesStrings: true)))
            } catch {
                findings.append(ContractFinding(.header, "header \(header.name) of \(label()) does not read: \(error)"))
            }
        }
        let hasNoBody = method.equalsIgnoringASCIICase("HEAD") || response.status == 204 || response.status == 304
            || (100..<200).contains(response.status)
        if hasNoBody { return findings }
        let contentType = response.headers.firstValue(named: "Content-Type")
        if response.body.isEmpty && contentType == nil && response.decodedBody == nil {
            if !declared.content.entries.isEmpty {
                findings.append(ContractFinding(.contentType, "\(label()) has no body; the document declares "
                                                + declared.content.declaredList))
            }
            return findings
        }
        findings.appendAny(checkBody(response.body, decoded: response.decodedBody, contentType: contentType,
                                     content: declared.content, direction: .response, label: label()))
        return findings
    }

    // MARK: - Bodies

    /// A body against a `content` map: its type declared, then its value against that type's schema.
    func checkBody(
        _ bytes: [UInt8], decoded: Value?, contentType: String?, content: CompiledContent,
        direction: ParleySchema.JSONSchema.Direction, label: @autoclosure () -> String
    ) -> [ContractFinding] {
        let kind: ContractFinding.Kind = direction == .request ? .request : .contentType
        guard let contentType, let type = try? MediaType(parsing: contentType) else {
            let what = contentType.map { "an unreadable Content-Type '\($0)'" } ?? "no Content-Type"
            return [ContractFinding(kind, "\(label()) has \(what); the document declares \(content.declaredList)")]
        }
        guard let entry = content.entry(for: type) else {
            return [ContractFinding(kind, "\(label()) is \(type.essence), which the document does not declare "
                                    + "(declared: \(content.declaredList))")]
        }
        guard let schema = entry.schema else {
            return [ContractFinding(.unchecked,
                                    "\(label()) is \(type.essence), declared without a schema: not checked")]
        }
        guard let decoder = registry.decoder(for: type) else {
            return [ContractFinding(.unchecked, "\(label()) is \(type.essence), which no registered format decodes: "
                                    + "not checked")]
        }
        let options = ParleySchema.JSONSchema.ValidationOptions(
            direction: direction, coercesStrings: decoder.format.scalarsAreText)
        var tapeValue: Value?
        // A JSON body is checked on its parsed tape, without building its values; they are built
        // only for a body that breaks the schema, whose findings need them. A body the tape path
        // cannot read goes the decoding path, which reports why.
        if decoded == nil, !Self.isShaped(type), let json = decoder.format as? JSONFormat,
           let tape = try? json.tape(of: bytes, mediaType: type, limits: decoder.limits)
        {
            if (try? schema.schema.isValid(JSONTapeInstance(tape), options: options)) == true { return [] }
            tapeValue = tape.value(at: 0)
        }
        let value: Value
        do {
            value = try tapeValue ?? Self.shaped(decoded ?? decoder.decode(bytes, contentType: type), bytes: bytes,
                                                 type: type, schema: schema, registry: registry)
        } catch {
            let kind: ContractFinding.Kind = direction == .request ? .request : .body
            return [ContractFinding(kind, "\(label()) does not decode as \(type.essence): \(error)")]
        }
        return violations(of: value, schema, kind: direction == .request ? .request : .body, label: label(),
                          options: options)
    }

    /// Whether a body of `type` is shaped by its schema before it is checked
    /// (``shaped(_:bytes:type:schema:registry:)``).
    static func isShaped(_ type: MediaType) -> Bool {
        type.subtype == "xml" || type.suffix == "xml" || (type.type == "text" && type.subtype == "csv")
            || (type.type == "application" && type.subtype == "x-www-form-urlencoded")
    }

    /// A decoded body as the value its Schema Object describes: an XML document through the
    /// schema's `xml` objects, CSV records as objects with text read by type, a form body by its
    /// properties' types; other formats' values as they are.
    static func shaped(_ value: Value, bytes: [UInt8], type: MediaType, schema: CompiledSchema,
                       registry: Registry) throws -> Value {
        if type.subtype == "xml" || type.suffix == "xml" {
            return try XMLBodyShape(schema: schema.raw, resolver: schema.resolver).value(from: value)
        }
        // Compared by their parts: an essence is a new string each time it is read.
        if type.type == "text" && type.subtype == "csv" {
            return try CSVBodyShape(schema: schema.raw, resolver: schema.resolver).value(from: value)
        }
        if type.type == "application" && type.subtype == "x-www-form-urlencoded" {
            return try FormBodyShape(schema: schema.raw, registry: registry, resolver: schema.resolver)
                .value(fromBody: String(decoding: bytes, as: UTF8.self))
        }
        return value
    }

    /// One finding per schema violation of `value` (at most ``maxSchemaFindings``).
    func violations(
        of value: Value, _ schema: CompiledSchema, kind: ContractFinding.Kind, label: @autoclosure () -> String,
        options: ParleySchema.JSONSchema.ValidationOptions
    ) -> [ContractFinding] {
        let result: ValidationResult
        do {
            // The common case, a valid value, without collecting errors.
            if try schema.schema.isValid(value, options: options) { return [] }
            result = try schema.schema.validate(value, options: options)
        } catch {
            return [ContractFinding(kind, "\(label()) was not checked to the end: \(error)",
                                    schemaPath: schema.location)]
        }
        if result.isValid { return [] }
        let labelText = label()
        return result.errors.prefix(maxSchemaFindings).map { error in
            ContractFinding(kind, "\(labelText): \(error.message)", instancePath: error.instanceLocation,
                            schemaPath: schemaPath(error, schema: schema),
                            value: Self.value(at: error.instanceLocation, in: value))
        }
    }

    /// The violated keyword's place, relative to the document when it is in the document's file
    /// (`#/paths/~1books/get/…/type`).
    func schemaPath(_ error: ValidationError, schema: CompiledSchema) -> String {
        let absolute = error.absoluteKeywordLocation.isEmpty ? schema.location : error.absoluteKeywordLocation
        return absolute.hasPrefix(document.uri + "#") ? String(absolute.dropFirst(document.uri.count)) : absolute
    }

    /// The value at a JSON Pointer of `root`.
    static func value(at pointer: String, in root: Value) -> Value? {
        var value = root
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = JSONPointerToken.unescaped(token)
            switch value {
            case .object(let object): guard let next = object[key] else { return nil }; value = next
            case .array(let elements):
                guard let index = Int(key), elements.indices.contains(index) else { return nil }
                value = elements[index]
            default: return nil
            }
        }
        return value
    }
}

extension Array<ContractFinding> {
    /// Appends `findings`, if there are any: most checks find none, and appending an empty list
    /// still went through the generic append.
    mutating func appendAny(_ findings: [ContractFinding]) {
        if !findings.isEmpty { append(contentsOf: findings) }
    }
}
