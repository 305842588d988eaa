import Foundation
import Parley
import ParleyJSON

/// What the wrapped JSON format is asked to decode and encode.
let jsonType: MediaType = "application/json"

// Formats that each break one rule of the conformance kit and are otherwise JSON, so a failure
// the kit reports can only come from the broken rule.

/// Claims `application/json` and `application/*+json`, which JSON already declares.
struct OverlappingFormat: Format {
    let json = JSONFormat()
    var name: String { "vendor-json" }
    var decodableMediaTypes: [MediaType] { ["application/vnd.vendor+json", "application/json", "application/*+json"] }
    var encodableMediaTypes: [MediaType] { ["application/vnd.vendor+json"] }
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        try json.decode(bytes, context: context)
    }
    func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        try json.encode(value, context: EncodingContext(mediaType: jsonType))
    }
}

/// Decodes every whole number as a float: `36` comes back as `36.0`.
struct LossyFormat: Format {
    let json = JSONFormat()
    var name: String { "lossy" }
    var decodableMediaTypes: [MediaType] { ["application/x-lossy"] }
    var encodableMediaTypes: [MediaType] { ["application/x-lossy"] }
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        func floated(_ value: Value) -> Value {
            switch value {
            case .integer(let integer): .float(Double(integer))
            case .array(let elements): .array(elements.map(floated))
            case .object(let object):
                .object(Value.Object(object.map { Value.Object.Member(key: $0.key, value: floated($0.value)) }))
            default: value
            }
        }
        return floated(try json.decode(bytes, context: context))
    }
    func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        try json.encode(value, context: EncodingContext(mediaType: jsonType))
    }
}

/// Never crashes, never throws anything but `FormatError`, but decodes with its own default
/// limits whatever the caller set.
struct LimitIgnoringFormat: Format {
    let json = JSONFormat()
    var name: String { "limitless" }
    var decodableMediaTypes: [MediaType] { ["application/x-limitless"] }
    var encodableMediaTypes: [MediaType] { ["application/x-limitless"] }
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        try json.decode(bytes, context: DecodingContext(mediaType: jsonType, limits: .standard))
    }
    func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        try json.encode(value, context: EncodingContext(mediaType: jsonType))
    }
}

/// A scratch buffer shared by every decode. Each read and each write holds the lock, so memory
/// stays safe (an unlocked array written from two threads frees its storage twice and aborts the
/// test process); a decode's write-then-read does not, so the promise `@unchecked Sendable` makes
/// is still false: two overlapping decodes read each other's bodies.
final class SharedScratch: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [UInt8] = []
    var body: [UInt8] {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Copies each body into a shared scratch buffer and decodes from there: right on one thread,
/// wrong when two decodes overlap (one decodes the other's body).
struct SharedScratchFormat: Format {
    let json = JSONFormat()
    let scratch = SharedScratch()
    var name: String { "scratch" }
    var decodableMediaTypes: [MediaType] { ["application/x-scratch"] }
    var encodableMediaTypes: [MediaType] { ["application/x-scratch"] }
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        scratch.body = Array(bytes)
        usleep(200)   // as if the decoder did some work before reading its buffer back
        return try json.decode(scratch.body, as: jsonType, limits: context.limits)
    }
    func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        try json.encode(value, context: EncodingContext(mediaType: jsonType))
    }
}

/// Counts its calls and returns the count from the second decode on: different results for the
/// same body on one thread.
final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0
    func next() -> Int { lock.withLock { calls += 1; return calls } }
}

struct StatefulFormat: Format {
    let json = JSONFormat()
    let counter = CallCounter()
    var name: String { "stateful" }
    var decodableMediaTypes: [MediaType] { ["application/x-stateful"] }
    var encodableMediaTypes: [MediaType] { ["application/x-stateful"] }
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        let value = try json.decode(bytes, context: context)
        let call = counter.next()
        return call > 1 ? ["call": .integer(Int64(call))] : value
    }
    func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        try json.encode(value, context: EncodingContext(mediaType: jsonType))
    }
}

/// Decodes JSON under its own type and encodes nothing.
struct DecodeOnlyFormat: Format {
    let json = JSONFormat()
    var name: String { "decode-only" }
    var decodableMediaTypes: [MediaType] { ["application/x-decode-only"] }
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        try json.decode(bytes, context: context)
    }
}
