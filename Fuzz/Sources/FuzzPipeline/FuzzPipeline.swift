import HTTPTypes
import Parley
import ParleyCBOR
import ParleyHTTP
import ParleyCompression
import ParleyCSV
import ParleyImage
import ParleyJSON
import ParleyMessagePack
import ParleyPropertyList
import ParleyXML
import ParleyYAML

/// Every format, small limits, gzip and deflate: the pipeline as a client or `parley check` runs it.
let limits = DecodingLimits(maxBodyBytes: 1 << 20, maxNodes: 100_000, maxPixels: 1 << 20,
                            maxDecompressedBytes: 1 << 20)
let formats: [any Format] = [JSONFormat(), YAMLFormat(), XMLFormat(), PropertyListFormat(), ImageFormat(), CSVFormat(),
                             MessagePackFormat(), CBORFormat()] + Registry.builtInFormats
let registry = Registry(formats: formats, limits: Dictionary(uniqueKeysWithValues: formats.map { ($0.name, limits) }))
let pipeline = ResponsePipeline(registry: registry,
                                validator: ResponseValidator(acceptableStatusCodes: ResponseValidator.allStatusCodes),
                                contentCodings: .standard, maxDecompressedBytes: 1 << 20, checksContentLength: true)
let statuses = [200, 201, 204, 206, 304, 404, 500, 103]
let contentTypes = [
    "application/json", "application/problem+json; charset=utf-16", "text/plain; charset=shift_jis",
    "text/html; charset=tscii", "application/xml", "image/png", "application/x-bplist", "application/yaml",
    "text/csv", "application/msgpack", "application/octet-stream", "text/plain; charset=iso-2022-jp",
]
let codings = ["gzip", "deflate", "gzip, deflate", "br", "identity"]

/// Arbitrary responses through the whole pipeline: the first byte picks the status, the method
/// (HEAD or GET), a Content-Type and a Content-Encoding (or none, or one written in the input);
/// the rest is the body. Only an outcome may come out: a value or a typed error, never a trap,
/// and the two views of it agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    guard let selector = bytes.first, bytes.count >= 2 else { return 0 }
    let picks = bytes[1]
    var fields = HTTPFields()
    var body = Array(bytes.dropFirst(2))
    if picks & 0x80 != 0, let newline = body.firstIndex(of: 0x0A) {
        // A Content-Type written in the input.
        fields[.contentType] = String(decoding: body[..<newline], as: UTF8.self)
        body.removeSubrange(...newline)
    } else if Int(picks & 0x0F) < contentTypes.count {
        fields[.contentType] = contentTypes[Int(picks & 0x0F)]
    }
    if Int(picks >> 4 & 0x07) < codings.count { fields[.contentEncoding] = codings[Int(picks >> 4 & 0x07)] }
    let response = HTTPResponse(status: .init(code: statuses[Int(selector) % statuses.count]), headerFields: fields)
    let request = HTTPRequest(method: selector & 0x80 != 0 ? .head : .get, scheme: "https", authority: "fuzz",
                              path: "/")
    let outcome = pipeline.run(response, body: body, request: request)
    let stopped = outcome.error != nil
    precondition(stopped == (outcome.output == nil), "an outcome has a value or an error")
    precondition(!stopped || outcome.findings.contains { $0.severity == .error },
                 "a stop is reported as an error finding")
    return 0
}
