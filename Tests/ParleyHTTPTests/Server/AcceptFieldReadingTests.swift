import Parley
import Testing

/// What a proxy and a server read from a whole `Accept` field, with the negotiation scanner.
@Suite struct AcceptFieldReadingTests {
    @Test(arguments: [
        ("text/html, application/xml;q=0.9, */*;q=0.8", 0.8),
        ("application/yaml", 1.0),
        ("application/json;q=0, text/csv;q=0.25", 0.25),
        ("application/json;q=.5, bad/, text/csv;q=2", 0.5),   // an invalid element has no say
    ])
    func theLowestNonZeroQuality(accept: String, lowest: Double) {
        #expect(AcceptNegotiator.lowestQuality(inAccept: accept) == lowest)
    }

    @Test func noValidElementHasNoLowestQuality() {
        #expect(AcceptNegotiator.lowestQuality(inAccept: "") == nil)
        #expect(AcceptNegotiator.lowestQuality(inAccept: "application/json;q=0") == nil)
        #expect(AcceptNegotiator.lowestQuality(inAccept: "application/, x") == nil)
    }

    @Test func aFieldOfOnlyInvalidElements() {
        for malformed in ["application/", "text/csv;charset=\"utf-8", ", application/, x", "application/json;q=2"] {
            #expect(AcceptNegotiator.hasOnlyInvalidElements(malformed), "\(malformed)")
        }
        for meaningful in ["", " , ", "*; q=.2", "image/png", "application/, image/png"] {
            #expect(!AcceptNegotiator.hasOnlyInvalidElements(meaningful), "\(meaningful)")
        }
    }
}
