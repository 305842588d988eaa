import Parley
import Testing

/// The parameter grammar media types and `Accept` elements share (one scanner behind both):
/// each case is read by ``MediaType/init(parsing:)-(String)``, which is strict and throws where
/// it breaks, and as an `Accept` element, which is lenient and skips an element that breaks.
@Suite struct ParameterGrammarTests {
    /// A value both callers accept, and the parameters it holds.
    struct Valid: CustomTestStringConvertible, Sendable {
        var input: String
        var parameters: [String: String]
        var testDescription: String { input.debugDescription }
    }

    /// A value both callers refuse, the media-type error code and its offset.
    struct Invalid: CustomTestStringConvertible, Sendable {
        var input: String
        var code: String
        var offset: Int
        var testDescription: String { input.debugDescription }
        /// An open quote swallows the rest of an `Accept` field, commas included.
        var leavesAQuoteOpen: Bool {
            code == "unterminatedQuote" || input.utf8.filter { $0 == UInt8(ascii: "\"") }.count % 2 == 1
        }
    }

    static let valid: [Valid] = [
        // Quoted-pairs: `\"` does not close the string, `\\` is one backslash.
        Valid(input: #"text/plain;a="x\"y""#, parameters: ["a": #"x"y"#]),
        Valid(input: #"text/plain;a="\\";b=1"#, parameters: ["a": #"\"#, "b": "1"]),
        Valid(input: #"text/plain;a="\x\y""#, parameters: ["a": "xy"]),
        // `;` and `,` inside quotes are text.
        Valid(input: #"text/plain;a="x;y";b=1"#, parameters: ["a": "x;y", "b": "1"]),
        Valid(input: #"text/plain;a="x,y""#, parameters: ["a": "x,y"]),
        Valid(input: #"text/plain;a="x\,y;\";z""#, parameters: ["a": #"x,y;";z"#]),
        // Trailing `;` and empty parameters.
        Valid(input: "text/plain;", parameters: [:]),
        Valid(input: "text/plain; ;\t; ", parameters: [:]),
        Valid(input: "text/plain;a=1;", parameters: ["a": "1"]),
        Valid(input: "text/plain;;a=1;;;b=2;", parameters: ["a": "1", "b": "2"]),
        Valid(input: #"text/plain;a="";b=2"#, parameters: ["a": "", "b": "2"]),
        // OWS is SP or HTAB, around `;` only; HTAB may stand inside a quoted string.
        Valid(input: "text/plain \t;\t a=1 \t; b=2\t", parameters: ["a": "1", "b": "2"]),
        Valid(input: "text/plain;a=\"x\ty z\"", parameters: ["a": "x\ty z"]),
        Valid(input: "text/plain;a=\"x\" ; b=\"y\"", parameters: ["a": "x", "b": "y"]),
        // obs-text (UTF-8) inside quotes.
        Valid(input: "text/plain;a=\"caf\u{E9}\"", parameters: ["a": "caf\u{E9}"]),
    ]

    static let invalid: [Invalid] = [
        // OWS is SP or HTAB only: other spacing is a control or non-token byte.
        Invalid(input: "text/plain;\u{0B}a=1", code: "controlCharacter", offset: 11),
        Invalid(input: "text/plain;\u{0C}a=1", code: "controlCharacter", offset: 11),
        Invalid(input: "text/plain\r\n;a=1", code: "controlCharacter", offset: 10),
        Invalid(input: "text/plain;a=1\n", code: "controlCharacter", offset: 14),
        Invalid(input: "text/plain;\u{A0}a=1", code: "invalidCharacter", offset: 11),
        // No whitespace around `=`.
        Invalid(input: "text/plain;a =1", code: "missingParameterValue", offset: 12),
        Invalid(input: "text/plain;a= 1", code: "emptyParameterValue", offset: 13),
        Invalid(input: "text/plain;a=\t1", code: "emptyParameterValue", offset: 13),
        // Control characters, in a token, a quoted string or a quoted-pair.
        Invalid(input: "text/plain;a=x\u{7F}", code: "controlCharacter", offset: 14),
        Invalid(input: "text/plain;a=\"x\u{1}y\"", code: "controlCharacter", offset: 15),
        Invalid(input: "text/plain;a=\"x\u{0}\"", code: "controlCharacter", offset: 15),
        Invalid(input: "text/plain;a=\"x\\\u{7F}\"", code: "controlCharacter", offset: 16),
        Invalid(input: "text/plain;a=\"x\\\n\"", code: "controlCharacter", offset: 16),
        Invalid(input: "text/plain;a=\"x\u{1}", code: "controlCharacter", offset: 15),
        // Quotes: unterminated (a trailing `\` escapes the would-be closing quote), junk after.
        Invalid(input: #"text/plain;a="x\""#, code: "unterminatedQuote", offset: 13),
        Invalid(input: #"text/plain;a="x;b=1"#, code: "unterminatedQuote", offset: 13),
        Invalid(input: #"text/plain;a="x"y"#, code: "junkAfterQuotedString", offset: 16),
        Invalid(input: #"text/plain;a="x" "y""#, code: "junkAfterQuotedString", offset: 17),
        Invalid(input: #"text/plain;a=x"y""#, code: "invalidCharacter", offset: 14),
        Invalid(input: #"text/plain;"a"=1"#, code: "invalidCharacter", offset: 11),
        // Names and values.
        Invalid(input: "text/plain;a", code: "missingParameterValue", offset: 12),
        Invalid(input: "text/plain;a;b=1", code: "missingParameterValue", offset: 12),
        Invalid(input: "text/plain;=1", code: "invalidCharacter", offset: 11),
        Invalid(input: "text/plain;a=", code: "emptyParameterValue", offset: 13),
        Invalid(input: "text/plain;a=;b=1", code: "emptyParameterValue", offset: 13),
        Invalid(input: "text/plain;a=b=c", code: "invalidCharacter", offset: 14),
        Invalid(input: "text/plain a=1", code: "invalidCharacter", offset: 11),
    ]

    func parameters(of type: MediaType) -> [String: String] {
        Dictionary(uniqueKeysWithValues: type.parameters.map { ($0.name, $0.value) })
    }

    @Test(arguments: valid)
    func mediaTypeReadsTheParameters(_ case: Valid) throws {
        #expect(parameters(of: try MediaType(parsing: `case`.input)) == `case`.parameters)
    }

    @Test(arguments: valid)
    func canonicalTextReadsBackTheSame(_ case: Valid) throws {
        let type = try MediaType(parsing: `case`.input)
        #expect(try MediaType(parsing: type.description) == type)
    }

    @Test(arguments: valid)
    func acceptElementMatchesAnOfferWithTheSameParameters(_ case: Valid) throws {
        // The offer has the element's parameters, and one more the element does not restrict.
        let same = try MediaType(parsing: `case`.input).settingParameter("extra", to: "1")
        let other = MediaType(type: "text", subtype: "plain", parameters: [.init(name: "a", value: "other")])
        let offers = `case`.parameters.isEmpty ? [same] : [other, same]
        let negotiator = AcceptNegotiator(offers: offers)
        #expect(negotiator.preferredOffer(forAccept: `case`.input) == same)
        // In a list, the element still counts, and its commas in quotes do not split it.
        let list = "image/png;q=0.1, \(`case`.input);q=0.5, image/gif;q=0.2"
        let listed = AcceptNegotiator(offers: offers + ["image/png", "image/gif"])
        #expect(listed.preferredOffer(forAccept: list) == same)
    }

    @Test(arguments: invalid)
    func mediaTypeThrowsWhereTheGrammarBreaks(_ case: Invalid) {
        do {
            _ = try MediaType(parsing: `case`.input)
            Issue.record("expected \(`case`.code)")
        } catch {
            #expect(error.code.rawValue == `case`.code)
            #expect(error.offset == `case`.offset)
        }
    }

    @Test(arguments: invalid)
    func acceptSkipsTheElementAndUsesTheRest(_ case: Invalid) {
        let negotiator = AcceptNegotiator(offers: ["text/plain", "image/png"])
        #expect(negotiator.preferredOffer(forAccept: `case`.input) == nil)
        if !`case`.leavesAQuoteOpen {
            #expect(negotiator.preferredOffer(forAccept: "\(`case`.input), image/png;q=0.1") == "image/png")
        }
        #expect(negotiator.preferredOffer(forAccept: "image/png;q=0.1 , \(`case`.input)") == "image/png")
    }

    @Test func aCommaIsAListForAMediaTypeButEndsAnAcceptElement() {
        for input in [
            "text/plain,", "text/plain;a=1,text/html", "text/plain;a=\"x\",b", "text/plain; ,a=1", "text/plain;a=1 ,"
        ] {
            do {
                _ = try MediaType(parsing: input)
                Issue.record("expected a list error for \(input)")
            } catch {
                #expect(error.code == .list, "\(input)")
            }
        }
        let negotiator = AcceptNegotiator(offers: ["text/html", "text/plain; a=1"])
        #expect(negotiator.preferredOffer(forAccept: "text/plain;a=1;q=0.5,text/html;q=0.4") == "text/plain; a=1")
        #expect(negotiator.preferredOffer(forAccept: "text/plain;a=1;,text/html;q=0.4") == "text/plain; a=1")
        #expect(negotiator.preferredOffer(forAccept: "text/plain;a=1;q=0.3 ,text/html;q=0.4") == "text/html")
    }

    @Test func anInvalidQuotedStringInAnAcceptElementStillHidesItsCommas() {
        // The element is skipped up to the comma after its closing quote, not the one inside.
        let negotiator = AcceptNegotiator(offers: ["text/plain", "image/png", "text/html"])
        #expect(
            negotiator.preferredOffer(forAccept: "text/plain;a=\"x\u{1},text/html\", image/png;q=0.1") == "image/png")
        #expect(
            negotiator.preferredOffer(forAccept: "text/plain;a=\"x\\\",text/html\"y, image/png;q=0.1") == "image/png")
    }

    @Test func quotedAndTokenValuesCompareAsTheSameValue() {
        let negotiator = AcceptNegotiator(offers: [MediaType(type: "text", subtype: "plain",
                                                             parameters: [.init(name: "a", value: "x\"y")])])
        #expect(negotiator.preferredOffer(forAccept: #"text/plain;a="x\"y""#) != nil)
        #expect(negotiator.preferredOffer(forAccept: #"text/plain;a="x\"Y""#) == nil, "non-charset values keep case")
        let utf8 = AcceptNegotiator(offers: ["text/plain; charset=utf-8"])
        #expect(utf8.preferredOffer(forAccept: #"text/plain;charset="UTF-8""#) != nil)
        #expect(utf8.preferredOffer(forAccept: #"text/plain;charset="U\TF-8""#) != nil)
    }
}
