import Parley

let offers: [MediaType] = [
    "application/json", "application/xml; charset=utf-8", "text/html", "text/plain; format=flowed", "image/png", "*/*",
]
let negotiator = AcceptNegotiator(offers: offers)

/// Negotiates arbitrary bytes as an Accept field; the answer must be an offer index or nil, and
/// the bytes and string entry points must agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let index = negotiator.preferredOfferIndex(forAcceptBytes: bytes)
    if let index, !offers.indices.contains(index) { fatalError("index out of range") }
    if let text = String(validating: bytes, as: UTF8.self), negotiator.preferredOfferIndex(forAccept: text) != index {
        fatalError("string and bytes entry points disagree")
    }
    return 0
}
