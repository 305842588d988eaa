import Foundation
import HTTPTypes
import Parley
import ParleyTestKit
import Testing

@Suite struct AcceptFieldTests {
    static let offers: [MediaType] = ["application/json", "application/xml", "text/html", "text/plain", "image/png"]

    @Test func anAbsentFieldAcceptsAnythingAndTheFirstOfferWins() {
        let accept = AcceptField(nil as String?)
        #expect(accept.fieldValue == nil)
        #expect(accept.acceptsAnything)
        #expect(!accept.isMalformed)
        #expect(accept.mediaRangeCount == 0)
        #expect(AcceptNegotiator(offers: Self.offers).preferredOfferIndex(for: accept) == 0)
    }

    @Test(arguments: ["", " ", ",", " , ,", "\t,\t"])
    func onlyEmptyElementsAcceptAnything(field: String) {
        let accept = AcceptField(field)
        #expect(accept.acceptsAnything)
        #expect(!accept.isMalformed)
        #expect(AcceptNegotiator(offers: Self.offers).preferredOffer(for: accept) == "application/json")
    }

    @Test(arguments: ["application/", "text/csv;charset=\"utf-8", ", application/, x", "*/html", "text/plain;q=2",
                      "text/plain;q=\"0.5\"", "text/plain;q=0.5;q=0.6"])
    func aFieldOfOnlyInvalidElementsIsMalformedAndAcceptsNothing(field: String) {
        let accept = AcceptField(field)
        #expect(accept.isMalformed)
        #expect(!accept.acceptsAnything)
        #expect(accept.mediaRangeCount == 0)
        #expect(AcceptNegotiator(offers: Self.offers).preferredOfferIndex(for: accept) == nil)
        #expect(AcceptNegotiator.hasOnlyInvalidElements(field))
    }

    @Test func invalidElementsAreSkippedAndTheValidOnesKept() {
        let accept = AcceptField("text/, */html, image/png;q=0.5, *; q=.2")
        #expect(!accept.isMalformed)
        #expect(accept.mediaRangeCount == 2)
        #expect(accept.lowestQuality == 0.2)
        #expect(AcceptNegotiator(offers: Self.offers).preferredOffer(for: accept) == "image/png")
    }

    @Test func qualitiesAreReadLeniently() {
        #expect(AcceptField("text/html, application/xml;q=0.9").lowestQuality == 0.9)
        #expect(AcceptField("text/html;q=.5").lowestQuality == 0.5)
        #expect(AcceptField("text/html;Q=0.1234").lowestQuality == 0.1234)
        #expect(AcceptField("text/html;q=0").lowestQuality == nil)
        #expect(AcceptField("text/html;q=0, image/png;q=0.3").lowestQuality == 0.3)
    }

    @Test func severalFieldsReadAsOneJoinedWithCommas() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .accept, value: "text/html;q=0.5"))
        fields.append(HTTPField(name: .accept, value: "image/png"))
        let accept = AcceptField(fields)
        #expect(accept == AcceptField("text/html;q=0.5, image/png"))
        #expect(accept.mediaRangeCount == 2)
        #expect(AcceptNegotiator(offers: Self.offers).preferredOffer(for: accept) == "image/png")
        #expect(AcceptField(HTTPFields()).fieldValue == nil)
    }

    @Test func oneScannedFieldNegotiatesAgainstSeveralOfferLists() {
        let accept = AcceptField("application/problem+json, application/xml;q=0.8, */*;q=0.1")
        #expect(AcceptNegotiator(offers: Self.offers).preferredOffer(for: accept) == "application/xml")
        #expect(AcceptNegotiator(offers: ["application/problem+json", "application/json"]).preferredOffer(for: accept)
            == "application/problem+json")
        #expect(AcceptNegotiator(offers: ["text/csv"]).preferredOffer(for: accept) == "text/csv")
        #expect(AcceptNegotiator(offers: []).preferredOfferIndex(for: accept) == nil)
    }

    @Test func hostileFieldsScanInLinearTimeAndAgreeWithTheText() {
        let long = Array(repeating: "text/plain;a=\"x,y\";q=0.5", count: 5000).joined(separator: ", ")
        let unterminated = "text/plain;a=\"" + String(repeating: ",", count: 100_000)
        for field in [long, unterminated] {
            let negotiator = AcceptNegotiator(offers: Self.offers)
            #expect(
                negotiator.preferredOfferIndex(for: AcceptField(field))
                    == negotiator.preferredOfferIndex(forAccept: field))
        }
        #expect(AcceptField(unterminated).isMalformed)
    }

    /// Every `Accept` case other projects test (`shared/corpora/real-world/negotiation`): the
    /// scanned field chooses exactly what the text does.
    @Test func realWorldVectorsChooseAsTheTextDoes() throws {
        guard let directory = Corpora.directory("real-world/negotiation") else {
            print(Corpora.missingMessage("real-world/negotiation"))
            return
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".jsonl")
        }
        var compared = 0
        for file in files.sorted() {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let offerTexts = object["offers"] as? [String], object.keys.contains("accept") else { continue }
                let field = object["accept"] as? String
                let offers = offerTexts.compactMap { try? MediaType(parsing: $0) }
                guard offers.count == offerTexts.count else { continue }
                let negotiator = AcceptNegotiator(offers: offers)
                #expect(
                    negotiator.preferredOfferIndex(for: AcceptField(field))
                        == negotiator.preferredOfferIndex(forAccept: field),
                    "\(file): \(String(describing: field)) over \(offerTexts)")
                compared += 1
            }
        }
        #expect(compared > 100)
    }
}
