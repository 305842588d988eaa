public import HTTPTypes
public import Parley

/// What ``ResponsePipeline`` made of one response: every finding in step order, and either the
/// decoded output or the error that stops a caller.
///
/// A client throws ``error`` (``get()``); a fixture check reports ``findings``. Both come from
/// the same run, so they cannot disagree.
public struct ResponseOutcome<Output: Sendable>: Sendable {
    /// Everything found, in the order of the steps.
    public var findings: [Finding]
    /// The decoded output, when the pipeline got that far and nothing stopped it.
    public var output: Output?
    /// The first error that stops a caller, if any.
    public var error: ParleyError?
    /// The name of the format that decoded (or tried to decode) the body.
    public var formatName: String?
    /// The response as decoded: `Content-Encoding` and `Content-Length` dropped when a coding
    /// was undone.
    public var response: HTTPResponse
    /// The body after any `Content-Encoding` was undone.
    public var body: [UInt8]

    /// The output, or the error that stopped the pipeline.
    ///
    /// Inlinable, so a caller's module runs it specialised for its `Output` rather than
    /// generically, looking up metadata for each call (kept, see Benchmarks/Gate/kept-shortcuts.md).
    @inlinable
    public func get() throws(ParleyError) -> Output {
        if let error { throw error }
        guard let output else {
            throw ParleyError(.decodingFailed, "the response pipeline produced nothing", response: response, body: body)
        }
        return output
    }
}

/// The state the pipeline's steps share: findings so far, the response and body as they are
/// now, and the first stopping error.
struct PipelineReport {
    var findings: [Finding] = []
    var response: HTTPResponse
    var body: [UInt8]
    var formatName: String?
    var error: ParleyError?

    mutating func add(_ kind: Finding.Kind, _ message: String) {
        findings.append(Finding(kind, message))
    }

    /// Adds a finding and records `error` as the stop, unless an earlier step stopped already.
    mutating func stop(_ kind: Finding.Kind, _ message: String, _ error: ParleyError) {
        add(kind, message)
        if self.error == nil { self.error = error.with(response: response, body: body) }
    }

    func outcome<Output>(_ output: Output?) -> ResponseOutcome<Output> {
        ResponseOutcome(findings: findings, output: error == nil ? output : nil, error: error,
                        formatName: formatName, response: response, body: body)
    }
}
