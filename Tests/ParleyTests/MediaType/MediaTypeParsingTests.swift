import Parley
import Testing

@Suite struct MediaTypeParsingTests {
    @Test func parsesTypeSubtypeSuffixAndParametersInOrder() throws {
        let type = try MediaType(parsing: "Application/Vnd.API+JSON; Charset=UTF-8; profile=\"a b\"")
        #expect(type.type == "application")
        #expect(type.subtype == "vnd.api+json")
        #expect(type.suffix == "json")
        #expect(type.parameters.map(\.name) == ["charset", "profile"])
        #expect(type.parameters.map(\.value) == ["UTF-8", "a b"])
        #expect(type.charset == "UTF-8")
    }

    @Test func serializesCanonically() throws {
        let type = try MediaType(parsing: "TEXT/Plain;charset=utf-8;format=\"fl\\\"owed\";empty=\"\"")
        #expect(type.description == "text/plain; charset=utf-8; format=\"fl\\\"owed\"; empty=\"\"")
        #expect(try MediaType(parsing: type.description) == type)
    }

    @Test(arguments: [
        ("text/plain", "text/plain"),
        ("  text/plain  ", "text/plain"),
        ("text/plain;", "text/plain"),
        ("text/plain ; ", "text/plain"),
        ("text/plain;;charset=utf-8", "text/plain; charset=utf-8"),
        ("text/plain;\tcharset=utf-8", "text/plain; charset=utf-8"),
        ("text/plain ;charset=utf-8", "text/plain; charset=utf-8"),
        ("*/*", "*/*"),
        ("text/*", "text/*"),
        ("application/x.y-z+xml;v=1", "application/x.y-z+xml; v=1"),
        ("text/plain; a=\"\\\\\"", "text/plain; a=\"\\\\\""),
    ])
    func acceptsTheGrammar(input: String, canonical: String) throws {
        #expect(try MediaType(parsing: input).description == canonical)
    }

    @Test(arguments: [
        ("", "empty"), ("   ", "empty"),
        ("/plain", "missingType"),
        ("text", "missingSubtype"), ("text/", "missingSubtype"), ("text/ ;a=b", "missingSubtype"),
        ("te xt/plain", "invalidCharacter"), ("text/pl@in", "invalidCharacter"), ("text/plain x", "invalidCharacter"),
        ("*/x", "wildcardTypeWithSubtype"),
        ("text/plain;charset", "missingParameterValue"), ("text/plain;charset;a=b", "missingParameterValue"),
        ("text/plain;charset =utf-8", "missingParameterValue"), ("text/plain;charset= utf-8", "emptyParameterValue"),
        ("text/plain;charset=", "emptyParameterValue"),
        ("text/plain;a=\"x\"y", "junkAfterQuotedString"), ("text/plain;a=\"x\" y", "junkAfterQuotedString"),
        ("text/plain;a=\"unterminated", "unterminatedQuote"), ("text/plain;a=\"x\\", "unterminatedQuote"),
        ("text/plain\u{1}", "controlCharacter"), ("text/plain;a=\"\u{7F}\"", "controlCharacter"),
        ("text/plain\r\n", "controlCharacter"),
        ("text/plain;charset=a;CHARSET=b", "duplicateParameter"),
        ("text/plain, text/html", "list"),
        ("tëxt/plain", "invalidCharacter"), ("text/plain;a=é", "invalidCharacter"),
    ])
    func rejectsBrokenValuesWithACode(input: String, code: String) {
        #expect {
            try MediaType(parsing: input)
        } throws: { error in
            (error as? MediaTypeParseError)?.code.rawValue == code
        }
    }

    @Test func errorsSayWhere() {
        do {
            _ = try MediaType(parsing: "text/plain; charset=utf-8; x")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .missingParameterValue)
            #expect(error.offset == 28)
            #expect(error.description.contains("byte 28"))
        }
    }

    @Test func quotedStringsMayHoldNonASCIIAndEscapes() throws {
        let type = try MediaType(parsing: "text/plain; title=\"caf\u{E9} \\\"x\\\"\"")
        #expect(type.parameter("TITLE") == "café \"x\"")
    }

    @Test func equalityIgnoresNameCaseOrderAndCharsetValueCase() throws {
        let a = try MediaType(parsing: "TEXT/HTML; charset=UTF-8; level=1")
        let b = try MediaType(parsing: "text/html;level=1;CHARSET=utf-8")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        let c = try MediaType(parsing: "text/html; charset=utf-8; level=L1")
        let d = try MediaType(parsing: "text/html; charset=utf-8; level=l1")
        #expect(c != d, "non-charset values keep their case")
        #expect(try MediaType(parsing: "text/html") != MediaType(parsing: "text/html; level=1"))
    }

    /// `withSubtypeUTF8` hands out the subtype's bytes and, by `suffix`'s rule, the suffix's.
    @Test func subtypeBytesCarryTheSuffixBySuffixsRule() throws {
        for text in ["application/a+b+xml", "application/json", "application/x+", "image/svg+xml", "a/+json", "a/+",
                     "*/*", "Text/Plain+JSON", "application/vnd.api+json; charset=utf-8"] {
            let type = try MediaType(parsing: text)
            type.withSubtypeUTF8 { subtype, suffix in
                #expect(String(decoding: subtype, as: UTF8.self) == type.subtype, "\(text)")
                #expect(suffix.map { String(decoding: $0, as: UTF8.self) } == type.suffix, "\(text)")
            }
        }
    }

    /// `parameterList.forEach` visits the parameters `parameters` lists, in order.
    @Test func parameterListForEachVisitsEveryParameterInOrder() throws {
        for text in ["text/plain", "text/plain; a=1", "text/plain; a=1; B=\"two\"; c=3"] {
            let type = try MediaType(parsing: text)
            var visited: [MediaType.Parameter] = []
            type.parameterList.forEach { visited.append($0) }
            #expect(visited == type.parameters, "\(text)")
        }
    }

    @Test func suffixIsTextAfterTheLastPlus() throws {
        #expect(try MediaType(parsing: "application/a+b+xml").suffix == "xml")
        #expect(try MediaType(parsing: "application/json").suffix == nil)
        #expect(try MediaType(parsing: "application/x+").suffix == nil)
    }

    @Test func rangesParseAndSayTheyAreRanges() throws {
        #expect(try MediaType(parsing: "*/*").isRange)
        #expect(try MediaType(parsing: "text/*").isRange)
        #expect(try !MediaType(parsing: "text/plain").isRange)
    }

    @Test func quietInitialiserReturnsNilOnError() {
        // A variable, not a literal: `MediaType("…")` with a literal is literal coercion.
        let valid = "text/plain", invalid = "nonsense"
        #expect(MediaType(valid) == .textPlain)
        #expect(MediaType(invalid) == nil)
    }

    @Test func hostileInputsFailFastWithoutCrashing() throws {
        let long = "text/plain" + String(repeating: ";a=b", count: 5_000)
        #expect(throws: MediaTypeParseError.self) { try MediaType(parsing: long) }  // duplicates
        let wide = "text/" + String(repeating: "x", count: 30_000)
        #expect(try MediaType(parsing: wide).subtype.count == 30_000)
        let quote = "text/plain;a=\"" + String(repeating: "\\\"", count: 10_000)
        #expect(throws: MediaTypeParseError.self) { try MediaType(parsing: quote) }
    }

    @Test func parsesFromBytes() throws {
        let bytes = Array("image/svg+xml".utf8)
        let type = try bytes.withUnsafeBytes { try MediaType(parsing: $0) }
        #expect(type.essence == "image/svg+xml")
    }

    @Test func settingAParameterKeepsOrder() throws {
        let type = try MediaType(parsing: "text/plain; a=1; charset=latin1")
        #expect(type.settingParameter("Charset", to: "utf-8").description == "text/plain; a=1; charset=utf-8")
        #expect(type.withoutParameters.description == "text/plain")
    }
}
