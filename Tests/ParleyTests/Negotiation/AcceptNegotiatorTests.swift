import Parley
import Testing

@Suite struct AcceptNegotiatorTests {
    static let offers: [MediaType] = [
        "application/json", "application/xml", "text/html", "text/plain", "image/png", "application/yaml"
    ]
    let negotiator = AcceptNegotiator(offers: Self.offers)

    /// The offer the text path chooses; every vector also checks that a scanned ``AcceptField``
    /// chooses the same.
    func choice(_ accept: String?, _ offers: [MediaType] = Self.offers) -> String? {
        let negotiator = AcceptNegotiator(offers: offers)
        let chosen = negotiator.preferredOffer(forAccept: accept)
        #expect(
            negotiator.preferredOffer(for: AcceptField(accept)) == chosen,
            "AcceptField differs for \(String(describing: accept))")
        return chosen?.description
    }

    @Test func noAcceptFieldAcceptsEverythingAndTheFirstOfferWins() {
        #expect(choice(nil) == "application/json")
    }

    @Test(arguments: ["", " ", ",", " , ,", "\t,\t"])
    func emptyElementsOnlyMeanNoPreference(accept: String) {
        #expect(choice(accept) == "application/json")
    }

    @Test(arguments: ["text/", "*/html", "te xt/plain", "text/plain;q=2", "text/plain;q=abc", "/", "text/plain;a",
                      "text/;x, */y", "text/plain;q=\"0.5\"", "text/plain x", "text/plain;a=\"b\"c"])
    func allInvalidElementsAcceptNothing(accept: String) {
        #expect(choice(accept) == nil)
    }

    @Test func invalidElementsAreSkippedAndTheRestUsed() {
        #expect(choice("text/, */html, image/png") == "image/png")
        #expect(choice("text/plain;q=abc, application/xml") == "application/xml")
        #expect(choice("application/json;q=1.5, application/xml;q=0.4") == "application/xml")
    }

    @Test func higherQualityWins() {
        #expect(choice("application/json;q=0.5, application/yaml") == "application/yaml")
        #expect(choice("text/html;q=0.9, text/plain;q=0.91") == "text/plain")
    }

    @Test func qZeroMeansNotAcceptable() {
        #expect(choice("application/json;q=0") == nil)
        #expect(choice("*/*, application/json;q=0") == "application/xml")
        #expect(choice("*/*;q=0") == nil)
    }

    @Test func mostSpecificRangeGivesTheQuality() {
        // text/plain is excluded by its own range even though text/* allows it.
        #expect(choice("text/*;q=0.8, text/plain;q=0", ["text/plain", "text/html"]) == "text/html")
        // */* is weaker than application/*.
        #expect(choice("*/*;q=0.9, application/*;q=0.1", ["application/json", "text/plain"]) == "text/plain")
        // Parameters make a range more specific.
        #expect(choice("text/html;level=1;q=0.2, text/html;q=0.7, */*;q=0.5",
                       ["text/html; level=1", "text/plain"]) == "text/plain")
    }

    @Test func equalQualityPrefersTheMoreSpecificMatchThenOfferOrder() {
        #expect(choice("*/*, text/plain", ["application/json", "text/plain"]) == "text/plain")
        #expect(choice("*/*", ["application/json", "text/plain"]) == "application/json")
        #expect(choice("text/plain, application/json", ["application/json", "text/plain"]) == "application/json")
    }

    @Test func rangeParametersMustBeOnTheOffer() {
        #expect(choice("text/plain;charset=utf-8", ["text/plain"]) == nil)
        #expect(choice("text/plain;charset=UTF-8", ["text/plain; charset=utf-8"]) == "text/plain; charset=utf-8")
        #expect(choice("text/plain;format=flowed", ["text/plain; format=FLOWED"]) == nil)
        #expect(choice("text/plain;format=\"flowed\"", ["text/plain; format=flowed"]) == "text/plain; format=flowed")
        #expect(choice("text/plain", ["text/plain; charset=utf-8"]) == "text/plain; charset=utf-8")
    }

    @Test(arguments: [
        "application/json;q=0, application/json",
        "application/json, application/json;q=0",
        "application/json;q=0.1, application/json;q=0.9, application/json;q=0",
        "application/json;q=0, application/json;q=0.9, application/json;q=0.1",
    ])
    func equallySpecificRangesCountWithTheirHighestQuality(accept: String) {
        #expect(choice(accept, ["application/json"]) == "application/json")
        // The highest of the equal ranges' q (0.9 or 1) beats another offer's 0.8.
        #expect(
            choice(accept + ", application/yaml;q=0.8", ["application/yaml", "application/json"]) == "application/json")
    }

    @Test func equallySpecificRangesWithParametersCountWithTheirHighestQuality() {
        let offers: [MediaType] = ["text/html; level=1", "text/plain"]
        #expect(choice("text/html;level=1;q=0, text/html;level=1, text/plain;q=0.5", offers) == "text/html; level=1")
        #expect(choice("text/html;level=1, text/html;level=1;q=0, text/plain;q=0.5", offers) == "text/html; level=1")
        #expect(
            choice("text/html;q=0;level=1, text/plain;q=0.5, text/html;level=1;q=0.6", offers) == "text/html; level=1")
        // Different parameters, the same count: still equally specific.
        let both: [MediaType] = ["text/html; level=1; charset=utf-8", "text/plain"]
        #expect(
            choice("text/html;level=1;q=0, text/html;charset=utf-8;q=0.7, text/plain;q=0.5", both)
                == "text/html; level=1; charset=utf-8")
        #expect(
            choice("text/html;charset=utf-8;q=0.7, text/html;level=1;q=0, text/plain;q=0.5", both)
                == "text/html; level=1; charset=utf-8")
        // Wildcards alike.
        #expect(choice("*/*;q=0, */*;q=0.5", ["application/json"]) == "application/json")
        #expect(choice("text/*;q=0.5, text/*;q=0", ["text/plain"]) == "text/plain")
    }

    @Test func aMoreSpecificRangeStillOverridesWhateverItsQuality() {
        #expect(choice("application/json;q=0, application/*, */*", ["application/json"]) == nil)
        #expect(choice("application/*, */*, application/json;q=0", ["application/json"]) == nil)
        #expect(choice("text/html;level=1;q=0, text/html", ["text/html; level=1"]) == nil)
        #expect(choice("text/html, text/html;level=1;q=0", ["text/html; level=1"]) == nil)
    }

    @Test func qIsTheWeightWhereverItStandsAndInAnyCase() {
        #expect(
            choice("text/plain;Q=0.1;charset=utf-8, text/html;q=0.2", ["text/plain; charset=utf-8", "text/html"])
                == "text/html")
        #expect(
            choice("text/plain;q=0.9;charset=utf-8, text/html;q=0.2", ["text/plain; charset=utf-8", "text/html"])
                == "text/plain; charset=utf-8")
    }

    @Test func legacyFormsAreReadLeniently() {
        #expect(choice("*; q=.2", ["application/json"]) == "application/json")
        #expect(
            choice("text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2", ["application/json"]) == "application/json")
        #expect(choice("text/plain;q=.5, text/html;q=0.4999", ["text/plain", "text/html"]) == "text/plain")
        #expect(choice("text/plain;q=0.00001", ["text/plain"]) == "text/plain")
        #expect(choice("text/plain;q=0.0000000000000000000001", ["text/plain"]) == "text/plain")
        #expect(choice("text/plain;q=1.", ["text/plain"]) == "text/plain")
    }

    @Test(arguments: [
        "text/plain;q=1.001", "text/plain;q=-1", "text/plain;q=", "text/plain;q=0.5;q=0.6",
        "text/plain;q=\"1\"", "text/plain;q=1e0", "text/plain;q=.", "text/plain;q=+1", "text/plain;q=0x1"
    ])
    func badQualitySkipsTheElement(accept: String) {
        #expect(choice(accept, ["text/plain"]) == nil)
        #expect(choice(accept + ", image/png;q=0.1", ["text/plain", "image/png"]) == "image/png")
    }

    @Test func suffixRangesInAcceptAreLiteral() {
        #expect(choice("application/*+json", ["application/problem+json"]) == nil)
        #expect(choice("application/*+json", ["application/*+json"]) == "application/*+json")
    }

    @Test func caseIsIgnoredInTypesAndParameterNames() {
        #expect(choice("TEXT/PLAIN;CHARSET=UTF-8", ["text/plain; charset=utf-8"]) == "text/plain; charset=utf-8")
    }

    @Test func commasInsideQuotedStringsDoNotSplit() {
        #expect(
            choice("text/plain;x=\"a,b\", image/png;q=0.1", ["text/plain; x=\"a,b\"", "image/png"])
                == "text/plain; x=\"a,b\"")
        // An unterminated quote swallows the rest of the field: only what came before counts.
        #expect(
            choice("image/png;q=0.1, text/plain;x=\"open, application/json", ["application/json", "image/png"])
                == "image/png")
    }

    @Test func realBrowserHeaders() {
        let chrome = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,"
            + "*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"
        #expect(choice(chrome) == "text/html")
        #expect(choice(chrome, ["application/json", "application/xml"]) == "application/xml")
        let firefox = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
        #expect(choice(firefox, ["application/json", "image/png"]) == "application/json")
        #expect(choice("*/*") == "application/json")
    }

    @Test func hostileHeadersStayLinearAndCorrect() {
        let thirtyKB = String(repeating: "application/x-unknown-type;q=0.5, ", count: 900) + "application/yaml"
        #expect(thirtyKB.utf8.count > 30_000)
        #expect(choice(thirtyKB) == "application/yaml")
        let empties = String(repeating: ",", count: 100_000) + "text/plain"
        #expect(choice(empties) == "text/plain")
        let control = "text/plain\u{0}, image/png"
        #expect(choice(control) == "image/png")
        let nonASCII = "tëxt/plain, image/png;q=0.5"
        #expect(choice(nonASCII) == "image/png")
        let manyParameters = "text/plain" + String(repeating: ";a=b", count: 5_000)
        #expect(choice(manyParameters, ["text/plain"]) == nil)
        let unterminated = "text/plain;a=\"" + String(repeating: "x", count: 30_000)
        #expect(choice(unterminated) == nil)
    }

    @Test func bytesAndStringEntryPointsAgree() {
        let header = "application/xml;q=0.5, application/yaml"
        let fromBytes = Array(header.utf8).withUnsafeBytes { negotiator.preferredOfferIndex(forAcceptBytes: $0) }
        #expect(fromBytes == negotiator.preferredOfferIndex(forAccept: header))
        #expect(fromBytes == 5)
    }

    @Test func noOffersMeansNoChoice() {
        #expect(AcceptNegotiator(offers: []).preferredOffer(forAccept: nil) == nil)
    }
}
