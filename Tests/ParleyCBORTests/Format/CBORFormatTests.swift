import Parley
import ParleyCBOR
import Testing

@Suite struct CBORFormatTests {
    @Test func placeholderBuilds() throws {
        let cbor = CBORFormat()
        #expect(try cbor.decode(try cbor.encode(["a": 1])) == ["a": 1])
    }
}
