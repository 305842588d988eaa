public import HTTPTypes
public import Parley
import ParleyHTTP

extension ContractRequest {
    /// The request of an HTTP head and its collected body: the head's path and query as the
    /// target (`/` when it has none), and `headerFields` (the head's own when `nil`) in order.
    public init(_ head: HTTPRequest, headerFields: HTTPFields? = nil, body: [UInt8]) {
        self.init(method: head.method.rawValue, target: head.path ?? "/",
                  headers: (headerFields ?? head.headerFields).map { ($0.name.rawName, $0.value) }, body: body)
    }
}

extension ContractChecker {
    /// Checks a response as a server or a gateway sends it, against the operation its request
    /// matched (``RequestCheck/operation``): the one path the framework middlewares and the
    /// gateway share.
    ///
    /// Unless `decoded` already holds the body's value (a pipeline decoded it, its coding undone),
    /// the body's `Content-Encoding` is undone first with ``contentCodingStep``'s codings, bounded
    /// by `maxDecompressedBytes` (the step's own bound when `nil`) and the body limit of the format
    /// its `Content-Type` names; a body that does not undo is one ``ContractFinding/Kind/body`` finding, and one
    /// that decompresses past the bound is one ``ContractFinding/Kind/unchecked`` finding (not read, so neither
    /// valid nor invalid), as a gateway reports a body over its transcoding limit.
    ///
    /// - Parameters:
    ///   - head: The response's status and header fields.
    ///   - body: The body as it goes out (empty when there is none).
    ///   - decoded: The body's value when the caller decoded it already, else `nil`.
    ///   - operation: The operation the request matched.
    ///   - method: The request's method (a `HEAD` response has no body).
    ///   - maxDecompressedBytes: The most bytes the body may decompress to, or `nil`.
    public func checkResponse(
        _ head: HTTPResponse, body: [UInt8], decoded: Value? = nil, operation: CompiledOperation, method: String,
        maxDecompressedBytes: Int? = nil
    ) -> [ContractFinding] {
        var fields = head.headerFields
        var bytes = body
        if decoded == nil {
            var step = contentCodingStep
            if let maxDecompressedBytes { step.maxDecompressedBytes = maxDecompressedBytes }
            do throws(ParleyError) {
                let undone = try step.undo(body, fields: fields, registry: registry)
                (bytes, fields) = (undone.body, undone.headerFields)
            } catch {
                if error.code == .limitExceeded {
                    let message = "the response body of \(operation.name) is not checked: \(error)"
                    return [ContractFinding(.unchecked, message)]
                }
                return [ContractFinding(.body, "the response body of \(operation.name) does not read: \(error)")]
            }
        }
        let response = ContractResponse(status: head.status.code, headers: fields.map { ($0.name.rawName, $0.value) },
                                        body: bytes, decodedBody: decoded)
        return checkResponse(response, operation: operation, method: method)
    }
}
