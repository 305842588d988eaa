import HTTPTypes
import Parley
import ParleyHTTP
import Testing

/// The one content-coding step the pipeline, the server, the client and replay share.
@Suite struct ContentCodingStepTests {
    let step = ContentCodingStep(ContentCodings([ReversingCoding()]))

    @Test func undoesEveryCodingLastAppliedFirstAndDropsTheCodingFields() throws {
        let twice = ReversingCoding().encode(ReversingCoding().encode(Array("abc".utf8)))
        let undone = try step.undo(twice,
                                   fields: [.contentEncoding: "x-reverse, identity, X-Reverse", .contentLength: "9"])
        #expect(undone.body == Array("abc".utf8))
        #expect(undone.headerFields[.contentEncoding] == nil)
        #expect(undone.headerFields[.contentLength] == nil)
        #expect(undone.storedDecoded.isEmpty)
    }

    @Test func aBodyWithoutTheSignatureIsStoredDecoded() throws {
        let undone = try step.undo(Array("abc".utf8), fields: [.contentEncoding: "x-reverse"])
        #expect(undone.body == Array("abc".utf8))
        #expect(undone.storedDecoded == ["x-reverse"])
        #expect(undone.headerFields[.contentEncoding] == nil)
    }

    @Test func noCodingLeavesBodyAndFieldsAsTheyAre() throws {
        let undone = try step.undo([1, 2], fields: [.contentLength: "2", .contentEncoding: "identity"])
        #expect(undone.body == [1, 2])
        #expect(undone.headerFields[.contentLength] == "2")
    }

    @Test func anUnknownCodingAndTheLimitsAreTypedErrors() {
        let unknown = #expect(throws: ParleyError.self) { try step.undo([1], fields: [.contentEncoding: "br"]) }
        #expect(unknown?.code == .unsupportedContentEncoding)
        let big = ReversingCoding().encode([UInt8](repeating: 0x61, count: 64))
        let limited = #expect(throws: ParleyError.self) {
            try ContentCodingStep(ContentCodings([ReversingCoding()]), maxDecompressedBytes: 16)
                .undo(big, fields: [.contentEncoding: "x-reverse"])
        }
        #expect(limited?.code == .limitExceeded)
        let byFormat = #expect(throws: ParleyError.self) {
            try step.undo(big, fields: [.contentEncoding: "x-reverse"], maximumBytes: 8)
        }
        #expect(byFormat?.limit?.maximum == 8)
    }
}
