import Parley
import Testing

/// `Charset.utf8SequenceLength(in:at:)` is the one UTF-8 validation the text readers share;
/// `firstInvalidUTF8` runs it over a whole buffer.
@Suite struct CharsetUTF8ValidationTests {
    func sequence(_ bytes: [UInt8]) -> Result<Int, Charset.UTF8Fault> {
        bytes.withUnsafeBufferPointer { Charset.utf8SequenceLength(in: $0, at: 0) }
    }

    @Test func validSequencesGiveTheirLength() {
        #expect(sequence(Array("é".utf8)) == .success(2))
        #expect(sequence(Array("€".utf8)) == .success(3))
        #expect(sequence(Array("😀".utf8)) == .success(4))
    }

    @Test func eachFaultIsNamed() {
        #expect(sequence([0x80]) == .failure(.invalidLeadByte))
        #expect(sequence([0xC0, 0x80]) == .failure(.invalidLeadByte))
        #expect(sequence([0xE2, 0x82]) == .failure(.truncated))
        #expect(sequence([0xC3, 0x41]) == .failure(.invalidContinuation))
        #expect(sequence([0xE0, 0x80, 0x80]) == .failure(.invalidScalar))  // overlong
        #expect(sequence([0xED, 0xA0, 0x80]) == .failure(.invalidScalar))  // a surrogate
        #expect(sequence([0xF4, 0x90, 0x80, 0x80]) == .failure(.invalidScalar))  // past U+10FFFF
    }

    @Test func firstInvalidUTF8FindsTheFirstBadSequence() {
        let bytes: [UInt8] = Array("aé€".utf8) + [0xE2, 0x28, 0xA1] + Array("b".utf8)
        #expect(bytes.withUnsafeBufferPointer { Charset.firstInvalidUTF8($0) } == 6)
        #expect(Array("aé€😀".utf8).withUnsafeBufferPointer { Charset.firstInvalidUTF8($0) } == nil)
    }
}
