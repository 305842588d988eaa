@testable import ParleyGateway
import Testing

/// The byte checks the decoders and writers run on every field: the value check that looks at many
/// bytes at once agrees with the check of one byte, wherever the byte falls.
@Suite struct HTTP1SyntaxTests {
    @Test func aValueIsValidWhenEachOfItsBytesIs() {
        for length in [1, 15, 16, 17, 64, 100] {
            for byte in UInt8.min...UInt8.max {
                for position in Set([0, length / 2, length - 1]) {
                    var value = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    value[position] = byte
                    let valid = value.withUnsafeBytes { HTTP1Syntax.areValueBytes($0) }
                    #expect(valid == HTTP1Syntax.isValueByte(byte), "\(byte) at \(position) of \(length)")
                }
            }
        }
        #expect([UInt8]().withUnsafeBytes { HTTP1Syntax.areValueBytes($0) })
    }

    @Test func bytesAreEqualWhenTheirLengthAndContentsAre() {
        let cases: [([UInt8], [UInt8], Bool)] = [
            ([], [], true), (Array("accept".utf8), Array("accept".utf8), true),
            (Array("accept".utf8), Array("Accept".utf8), false), (Array("accept".utf8), Array("accep".utf8), false),
            ([], Array("a".utf8), false),
        ]
        for (first, second, equal) in cases {
            let result = first.withUnsafeBytes { first in second.withUnsafeBytes { HTTP1Syntax.equal(first, $0) } }
            #expect(result == equal, "\(first) and \(second)")
        }
        #expect(Array("/orders".utf8).withUnsafeBytes { HTTP1Syntax.is("/orders", $0) })
        #expect(!Array("/order".utf8).withUnsafeBytes { HTTP1Syntax.is("/orders", $0) })
    }
}
