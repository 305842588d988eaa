import FoundationEssentials
import Parley
import Testing

@Suite struct QueryEncoderTests {
    /// Brackets left readable so expected strings show the strategy, not the escaping.
    let readable = PercentEscaping.rfc3986.allowing("[]")

    @Test func defaultsEscapeBracketsSortKeysAndWriteNullAsBareKey() throws {
        let parameters: Value = ["b": 2, "a": ["x": "1 2", "y": [true, nil]]]
        #expect(try QueryEncoder().encode(parameters) == "a%5Bx%5D=1%202&a%5By%5D%5B%5D=true&a%5By%5D%5B%5D&b=2")
    }

    @Test func nesting() throws {
        let parameters: Value = ["a": ["b": "c", "d": ["e": 1]]]
        #expect(try QueryEncoder(nesting: .brackets, escaping: readable).encode(parameters) == "a[b]=c&a[d][e]=1")
        #expect(try QueryEncoder(nesting: .dotted).encode(parameters) == "a.b=c&a.d.e=1")
    }

    @Test(arguments: [
        (QueryEncoder.ArrayEncoding.emptyBrackets, QueryEncoder.Nesting.brackets, "a[]=1&a[]=2&o[c][]=x"),
        (.indices, .brackets, "a[0]=1&a[1]=2&o[c][0]=x"),
        (.indices, .dotted, "a.0=1&a.1=2&o.c.0=x"),
        (.repeatedKeys, .brackets, "a=1&a=2&o[c]=x"),
        (.emptyBrackets, .dotted, "a=1&a=2&o.c=x"),
        (.comma, .brackets, "a=1,2&o[c]=x"),
    ])
    func arrays(strategy: QueryEncoder.ArrayEncoding, nesting: QueryEncoder.Nesting, expected: String) throws {
        let parameters: Value = ["a": [1, 2], "o": ["c": ["x"]]]
        #expect(try QueryEncoder(nesting: nesting, arrays: strategy, escaping: readable).encode(parameters) == expected)
    }

    @Test func commaArraysEscapeCommasInsideElementsAndRefuseContainers() throws {
        let encoder = QueryEncoder(arrays: .comma)
        #expect(try encoder.encode(["a": ["x,y", "z", nil]]) == "a=x%2Cy,z,")
        #expect(try encoder.encode(["a": []]) == "")
        #expect(throws: FormatError.self) { try encoder.encode(["a": [["b": 1]]]) }
    }

    @Test func booleans() throws {
        let parameters: Value = ["t": true, "f": false]
        #expect(try QueryEncoder(bools: .trueFalse).encode(parameters) == "f=false&t=true")
        #expect(try QueryEncoder(bools: .oneZero).encode(parameters) == "f=0&t=1")
    }

    @Test func nulls() throws {
        let parameters: Value = ["a": nil, "b": 1, "c": [nil]]
        #expect(try QueryEncoder(nulls: .bareKey, escaping: readable).encode(parameters) == "a&b=1&c[]")
        #expect(try QueryEncoder(nulls: .omitted).encode(parameters) == "b=1")
    }

    @Test func dates() throws {
        let parameters: Value = [
            "d": .date(Date(timeIntervalSince1970: 978_307_200)), "h": .date(Date(timeIntervalSince1970: 1.5))
        ]
        #expect(
            try QueryEncoder(dates: .iso8601).encode(parameters)
                == "d=2001-01-01T00%3A00%3A00Z&h=1970-01-01T00%3A00%3A01.500Z")
        #expect(try QueryEncoder(dates: .secondsSince1970).encode(parameters) == "d=978307200&h=1.5")
        let far: Value = ["d": .date(Date(timeIntervalSince1970: 1e300))]
        #expect(try QueryEncoder(dates: .secondsSince1970).encode(far) == "d=1e%2B300")
        #expect { try QueryEncoder(dates: .iso8601).encode(far) } throws: {
            ($0 as? FormatError)?.code == .unsupportedValue
        }
    }

    @Test func keyOrder() throws {
        let parameters: Value = ["b": 1, "a": ["z": 1, "y": 2], "B": 3]
        #expect(try QueryEncoder(keyOrder: .sorted, escaping: readable).encode(parameters) == "B=3&a[y]=2&a[z]=1&b=1")
        #expect(
            try QueryEncoder(keyOrder: .insertion, escaping: readable).encode(parameters) == "b=1&a[z]=1&a[y]=2&B=3")
    }

    @Test func sortedOrderKeepsRepeatedKeysInTheirOrder() throws {
        let object = Value.Object([
            .init(key: "k", value: "2"), .init(key: "a", value: "x"), .init(key: "k", value: "1")
        ])
        #expect(try QueryEncoder().encode(.object(object)) == "a=x&k=2&k=1")
    }

    @Test func escaping() throws {
        let parameters: Value = ["q": "a b+c&d=é/~?#"]
        #expect(try QueryEncoder().encode(parameters) == "q=a%20b%2Bc%26d%3D%C3%A9%2F~%3F%23")
        #expect(try QueryEncoder(escaping: .form).encode(parameters) == "q=a+b%2Bc%26d%3D%C3%A9%2F~%3F%23")
        #expect(
            try QueryEncoder(escaping: .rfc3986.allowing("/?")).encode(parameters) == "q=a%20b%2Bc%26d%3D%C3%A9/~?%23")
        #expect(PercentEscaping.rfc3986.allowing("%é").allowedCharacters == PercentEscaping.unreservedCharacters)
    }

    @Test("Unescaping keeps a malformed % leniently and refuses it strictly, as it refuses bytes that are not UTF-8")
    func unescaping() {
        func lenient(_ text: String, plus: Bool = false) -> String {
            PercentEscaping.unescape(Array(text.utf8), plusAsSpace: plus)
        }
        func strict(_ text: String, plus: Bool = false) -> String? {
            PercentEscaping.unescapeStrictly(Array(text.utf8), plusAsSpace: plus)
        }
        #expect(lenient("a%20b+c%2B%C3%A9", plus: true) == "a b c+é")
        #expect(strict("a%20b+c%2B%C3%A9", plus: true) == "a b c+é")
        #expect(strict("a+b") == "a+b")
        for (malformed, kept) in [("%", "%"), ("a%2", "a%2"), ("%zz", "%zz"), ("100%", "100%"), ("%%41", "%A")] {
            #expect(strict(malformed) == nil, "\(malformed)")
            #expect(lenient(malformed) == kept, "\(malformed)")
        }
        #expect(strict("%FF") == nil)
        #expect(lenient("%FF") == "\u{FFFD}")
        #expect(strict("") == "")
        #expect(PercentEscaping.unescapeStrictly(Array("x=%41%42".utf8)[2...], plusAsSpace: false) == "AB")
    }

    @Test func scalarsOfEveryKind() throws {
        let parameters: Value = [
            "b": .bytes([1, 2, 3]), "f": 2.5, "g": 2.0, "n": .number("1e400"), "t": .tagged("uid", 7)
        ]
        #expect(try QueryEncoder().encode(parameters) == "b=AQID&f=2.5&g=2&n=1e400&t=7")
    }

    @Test func emptyContainersWriteNothing() throws {
        #expect(try QueryEncoder().encode(["a": [], "b": [:], "c": 1]) == "c=1")
        #expect(try QueryEncoder().encode([:]) == "")
    }

    @Test func customHookTakesOverOrFallsBack() throws {
        let encoder = QueryEncoder(escaping: readable, custom: { key, value in
            if case .bytes(let bytes) = value { return [(key, bytes.map { String($0, radix: 16) }.joined())] }
            if key == "secret" { return [] }
            if key == "flags" { return [("flags", "a b"), ("flags!", nil)] }
            return nil
        })
        let parameters: Value = ["raw": .bytes([0xAB, 0xCD]), "secret": "x", "flags": [1], "o": ["raw": .bytes([1])]]
        #expect(try encoder.encode(parameters) == "flags=a%20b&flags%21&o[raw]=1&raw=abcd")
    }

    @Test func unencodableParametersThrow() {
        #expect(throws: FormatError.self) { try QueryEncoder().encode(["a", "b"]) }
        #expect(throws: FormatError.self) { try QueryEncoder().encode("text") }
        #expect(throws: FormatError.self) { try QueryEncoder().encode(["x": .float(.infinity)]) }
        #expect(throws: FormatError.self) { try QueryEncoder().encode(["x": .float(.nan)]) }
    }

    @Test func encodableParameters() throws {
        struct Search: Encodable {
            var term = "swift ui"
            var tags = ["a", "b"]
            var limit: Int? = nil
        }
        #expect(try QueryEncoder(escaping: readable).encode(Search()) == "tags[]=a&tags[]=b&term=swift%20ui")
    }
}
