import Parley
import Testing

@Suite struct FormDecoderTests {
    @Test func bracketsAppendsAndIndices() throws {
        let value = try FormDecoder().decode("a%5Bb%5D%5B%5D=1&a[b][]=2&c[0]=x")
        #expect(value == ["a": ["b": ["1", "2"]], "c": ["x"]])
    }

    @Test func repeatedKeysBecomeArrays() throws {
        #expect(try FormDecoder().decode("a=1&b=x&a=2&a[]=3") == ["a": ["1", "2", "3"], "b": "x"])
    }

    @Test func plusEscapesBareKeysAndEmptyValues() throws {
        #expect(
            try FormDecoder().decode("?q=a+b%2Bc%C3%A9&flag&empty=&&bad=%zz") == [
                "q": "a b+cé", "flag": nil, "empty": "", "bad": "%zz"
            ])
        #expect(try FormDecoder(plusAsSpace: false).decode("q=a+b") == ["q": "a+b"])
    }

    @Test func dottedNesting() throws {
        #expect(try FormDecoder(nesting: .dotted).decode("a.b=1&a.c.0=x&a.c.1=y") == ["a": ["b": "1", "c": ["x", "y"]]])
    }

    @Test func commaSplitting() throws {
        #expect(try FormDecoder(splitsCommas: true).decode("a=1,2,&b=3") == ["a": ["1", "2", ""], "b": "3"])
        #expect(try FormDecoder().decode("a=1,2") == ["a": "1,2"])
    }

    @Test func indicesOrderByNumberNotArrival() throws {
        #expect(try FormDecoder().decode("a[10]=z&a[1]=y&a[0]=x") == ["a": ["x", "y", "z"]])
    }

    @Test func arrayOfObjectsFillsAnElementUntilAKeyRepeats() throws {
        #expect(try FormDecoder().decode("u[][n]=a&u[][a]=1&u[][n]=b") == ["u": [["n": "a", "a": "1"], ["n": "b"]]])
    }

    @Test func keysThatAreNotBracketPatternsStayNames() throws {
        #expect(
            try FormDecoder().decode("a[b=1&[x]=2&c]d=3&e[f]g=4") == ["a[b": "1", "[x]": "2", "c]d": "3", "e[f]g": "4"])
    }

    @Test func roundTripsWhatTheEncoderWrites() throws {
        let value: Value = [
            "name": "Ada Lovelace", "tags": ["a&b", "c=d"], "address": ["city": "Zürich", "zip": "8001"]
        ]
        for encoder in [QueryEncoder(), .form, QueryEncoder(arrays: .indices)] {
            let text = try encoder.encode(value)
            #expect(
                try FormDecoder().decode(text) == [
                    "address": ["city": "Zürich", "zip": "8001"], "name": "Ada Lovelace", "tags": ["a&b", "c=d"]
                ])
        }
        let dotted = try QueryEncoder(nesting: .dotted, arrays: .indices).encode(value)
        #expect(try FormDecoder(nesting: .dotted).decode(dotted)["address"] == ["city": "Zürich", "zip": "8001"])
    }

    @Test(arguments: ["a=1&a[b]=2", "a[b]=1&a=2", "a[]=1&a[b]=2", "a[0]=1&a[]=2"])
    func conflictingKeysAreMalformed(_ input: String) {
        #expect { try FormDecoder().decode(input) } throws: { ($0 as? FormatError)?.code == .malformed }
    }

    @Test func limits() throws {
        let shallow = FormDecoder(limits: DecodingLimits(maxDepth: 3))
        #expect((try? shallow.decode("a[b][c]=1")) == ["a": ["b": ["c": "1"]]])
        #expect { try shallow.decode("a[b][c][d]=1") } throws: { ($0 as? FormatError)?.limit?.name == "maxDepth" }
        let few = FormDecoder(limits: DecodingLimits(maxNodes: 5))
        #expect { try few.decode("a=1&b=2&c=3") } throws: { ($0 as? FormatError)?.limit?.name == "maxNodes" }
        let small = FormDecoder(limits: DecodingLimits(maxBodyBytes: 4))
        #expect(try small.decode("a=12") == ["a": "12"])
        #expect { try small.decode("a=123") } throws: { ($0 as? FormatError)?.limit?.name == "maxBodyBytes" }
    }

    @Test func formFormatIsBuiltInForDecodingAndReplies() throws {
        let body = Array("name=Ada+L&tags%5B%5D=x".utf8)
        #expect(
            try Registry.builtIn.decode(body, contentType: "application/x-www-form-urlencoded") == [
                "name": "Ada L", "tags": ["x"]
            ])
        let choice = try #require(Registry.builtIn.encoder(forAccept: "application/x-www-form-urlencoded"))
        #expect(choice.format.name == "form")
        #expect(choice.mediaType.description == "application/x-www-form-urlencoded")
        let context = EncodingContext(mediaType: choice.mediaType)
        #expect(try choice.format.encode(["b": "x y", "a": 1], context: context) == Array("a=1&b=x+y".utf8))
        #expect(throws: (any Error).self) { try choice.format.encode(["x", "y"], context: context) }
    }
}
