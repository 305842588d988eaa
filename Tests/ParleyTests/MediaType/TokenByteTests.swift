import Parley
import Testing

/// The `tchar` test every token scan uses (media types, `Accept` and its siblings) is a
/// written-out table; each of the 256 bytes is checked against RFC 9110 §5.6.2's definition.
@Suite struct TokenByteTests {
    /// `tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|"
    /// / "~" / DIGIT / ALPHA`, spelled as the RFC spells it.
    static func isTokenPerRFC(_ byte: UInt8) -> Bool {
        let scalar = Unicode.Scalar(byte)
        return "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
            || ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    @Test func everyByteIsATokenByteExactlyWhenTheRFCSaysSo() {
        for byte in UInt8.min...UInt8.max {
            #expect(ByteClass.isToken(byte) == Self.isTokenPerRFC(byte), "byte 0x\(String(byte, radix: 16))")
        }
    }

    /// A subtype `x?y` parses exactly when `?` is a token byte; otherwise the error points at it.
    @Test func aSubtypeTakesEveryTokenByteAndStopsAtAnyOther() {
        for byte in UInt8.min...UInt8.max where byte != UInt8(ascii: ";") && !ByteClass.isWhitespace(byte) {
            let input: [UInt8] = Array("text/x".utf8) + [byte] + Array("y".utf8)
            do {
                let type = try input.withUnsafeBytes { try MediaType(parsing: $0) }
                #expect(Self.isTokenPerRFC(byte), "byte 0x\(String(byte, radix: 16)) parsed as \(type)")
                #expect(type.subtype.utf8.count == 3)
            } catch let error as MediaTypeParseError {
                #expect(!Self.isTokenPerRFC(byte), "byte 0x\(String(byte, radix: 16)): \(error)")
                #expect(error.offset == 6)
            } catch {
                Issue.record(error)
            }
        }
    }
}
