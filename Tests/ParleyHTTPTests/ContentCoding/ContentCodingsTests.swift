import HTTPTypes
import Parley
import ParleyHTTP
import Testing

@Suite struct ContentCodingsTests {
    @Test func takesTheEncodersOfContentCodings() {
        let codings = ContentCodings([ReversingCoding()], encoders: [ReversingCoding()])
        #expect(EncodingNegotiator(codings).preferredCoding(forAcceptEncoding: "x-reverse") == "x-reverse")
    }
}

struct ReversingCoding: ContentEncoder, ContentDecoder {
    static let signature: [UInt8] = Array("REV".utf8)
    var token: String { "x-reverse" }
    var tokens: [String] { ["x-reverse"] }

    func encode(_ bytes: [UInt8]) -> [UInt8] { Self.signature + bytes.reversed() }

    func looksEncoded(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Self.signature) }

    func decode(_ bytes: [UInt8], maximumBytes: Int) throws(ContentDecodingError) -> [UInt8] {
        guard looksEncoded(bytes) else { throw ContentDecodingError(.corrupt, "no x-reverse signature") }
        let payload = bytes.dropFirst(Self.signature.count)
        guard payload.count <= maximumBytes else {
            throw ContentDecodingError(.limitExceeded(maximum: maximumBytes),
                                       "x-reverse body over \(maximumBytes) bytes")
        }
        return payload.reversed()
    }
}
