import Parley
import Testing

/// Large forms (issue #22 row 2): each pair is added in place, so 40,000 keys decode in linear
/// time (before, every insertion copied the members read so far).
@Suite struct FormDecoderScaleTests {
    static let count = 40_000

    @Test func manyDistinctKeysKeepTheirOrder() throws {
        let form = (0..<Self.count).map { "key\($0)=v\($0)" }.joined(separator: "&")
        let value = try FormDecoder().decode(form)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.count == Self.count)
        #expect(object.keys.first == "key0")
        #expect(object.keys.last == "key\(Self.count - 1)")
        #expect(object[Self.count - 1].value == .string("v\(Self.count - 1)"))
    }

    @Test func oneKeyRepeatedBecomesOneLongArray() throws {
        let form = [String](repeating: "a=1", count: Self.count).joined(separator: "&")
        guard case .array(let items)? = try FormDecoder().decode(form)["a"] else {
            Issue.record("not an array"); return
        }
        #expect(items.count == Self.count)
    }

    @Test func manyIndicesAndAppendsBecomeArrays() throws {
        let indexed = (0..<Self.count).reversed().map { "a[\($0)]=\($0)" }.joined(separator: "&")
        guard case .array(let items)? = try FormDecoder().decode(indexed)["a"] else {
            Issue.record("not an array"); return
        }
        #expect(items.count == Self.count)
        #expect(items.first == .string("0"))
        #expect(items.last == .string("\(Self.count - 1)"))
        let appended = [String](repeating: "a[][x]=1&a[][y]=2", count: Self.count / 2).joined(separator: "&")
        guard case .array(let elements)? = try FormDecoder().decode(appended)["a"] else {
            Issue.record("not an array"); return
        }
        #expect(elements.count == Self.count / 2)
        #expect(elements.first == ["x": "1", "y": "2"])
    }

    @Test func nestedObjectsFillInPlace() throws {
        let form = (0..<Self.count).map { "a[b][k\($0)]=\($0)" }.joined(separator: "&")
        let value = try FormDecoder().decode(form)
        guard case .object(let inner)? = value["a"]?["b"] else { Issue.record("not an object"); return }
        #expect(inner.count == Self.count)
    }

    @Test func aKeyThatIsBothAValueAndAContainerStillFails() {
        let error = #expect(throws: FormatError.self) { try FormDecoder().decode("a=1&a[b]=2") }
        #expect(error?.code == .malformed)
        let other = #expect(throws: FormatError.self) { try FormDecoder().decode("a[b]=2&a=1") }
        #expect(other?.code == .malformed)
    }

    @Test func indicesAreDigitsOnlyAndNeverOverflow() throws {
        #expect(try FormDecoder().decode("a[%2B1]=x") == ["a": ["+1": "x"]])  // `+` alone is a space
        #expect(try FormDecoder().decode("a[99999999999999999999]=x") == ["a": ["99999999999999999999": "x"]])
        #expect(try FormDecoder().decode("a[9223372036854775807]=x&a[0]=y") == ["a": ["y", "x"]])
        #expect(try FormDecoder(nesting: .dotted).decode("a.-1=x") == ["a": ["-1": "x"]])
    }
}
