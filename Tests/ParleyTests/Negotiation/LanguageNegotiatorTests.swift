import Parley
import Testing

/// Vectors written from RFC 4647 §3.3.1 (basic filtering) and §3.4 (lookup), and RFC 9110
/// §12.5.4, then a cross-check against jshttp/negotiator's `language(array)` assertions
/// (test/language.js).
///
/// `shared/corpora/real-world/negotiation` has no `Accept-Language` cases (all 292 are
/// `Accept`), so the cross-check uses negotiator's test file.
@Suite struct LanguageNegotiatorTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        var header: String?
        var languages: [String]
        var expected: String?
        var testDescription: String {
            "\(header.map { "'\($0)'" } ?? "no field") over \(languages) → \(expected ?? "nil")"
        }
    }

    static let vectors: [Vector] = [
        // RFC 4647 §3.3.1: "de-de" matches "de-DE-1996" but not "de-Deva" or "de-Latn-DE".
        Vector(header: "de-de", languages: ["de-Deva", "de-Latn-DE", "de-DE-1996"], expected: "de-DE-1996"),
        Vector(header: "de-de", languages: ["de-Deva", "de-Latn-DE"], expected: nil),
        // RFC 4647 §3.3.1: "*" matches every tag; a prefix ends at a subtag boundary.
        Vector(header: "*", languages: ["fr", "en"], expected: "fr"),
        Vector(header: "en", languages: ["eng", "en-GB"], expected: "en-GB"),
        // RFC 4647 §3.4: lookup truncates "zh-Hant-CN-x-private1-private2" through
        // "zh-Hant-CN-x-private1", "zh-Hant-CN" (the singleton "x" goes with "private1"), "zh-Hant", "zh".
        Vector(header: "zh-Hant-CN-x-private1-private2", languages: ["zh-Hant-CN-x", "zh-Hant"], expected: "zh-Hant"),
        Vector(header: "zh-Hant-CN-x-private1-private2", languages: ["zh", "zh-Hant-CN"], expected: "zh-Hant-CN"),
        Vector(
            header: "zh-Hant-CN-x-private1-private2", languages: ["zh-Hant-CN-x-private1"],
            expected: "zh-Hant-CN-x-private1"),
        // Browsers' headers: filtering first, lookup where filtering finds nothing.
        Vector(header: "en-GB,en;q=0.9,de;q=0.8", languages: ["de", "en", "fr", "ja"], expected: "en"),
        Vector(header: "en-GB,en;q=0.9,de;q=0.8", languages: ["en-US", "en-GB", "de"], expected: "en-GB"),
        Vector(header: "en-GB,en;q=0.9,de;q=0.8", languages: ["de", "en-US"], expected: "en-US"),
        Vector(header: "fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", languages: ["de", "en", "fr-FR"],
               expected: "fr-FR"),
        Vector(header: "fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", languages: ["ja"], expected: "ja"),
        // q=0 excludes what the range filters to; lookup never revives it.
        Vector(header: "*, fr;q=0", languages: ["fr", "en"], expected: "en"),
        Vector(header: "fr;q=0, *", languages: ["fr-CA", "en"], expected: "en"),
        Vector(header: "en-GB;q=0, en", languages: ["en-GB", "en-US"], expected: "en-US"),
        Vector(header: "en-GB, en;q=0", languages: ["en"], expected: nil),
        Vector(header: "*;q=0", languages: ["en"], expected: nil),
        // Lookup ranks above `*`.
        Vector(header: "en-GB, *;q=0.1", languages: ["fr", "en"], expected: "en"),
        // Equal q: a named range over `*`, the range listed first, an exact match over a prefix,
        // then the server's order.
        Vector(header: "*, en", languages: ["es", "en"], expected: "en"),
        Vector(header: "en", languages: ["en-US", "en"], expected: "en"),
        Vector(header: "de, en-GB", languages: ["en-GB", "de"], expected: "de"),
        Vector(header: "en, de", languages: ["de-AT", "en-US", "de"], expected: "en-US"),
        Vector(header: "*", languages: ["ja", "en"], expected: "ja"),
        // Case-insensitive; other parameters ignored; invalid elements skipped.
        Vector(header: "EN-gb", languages: ["en-GB"], expected: "en-GB"),
        Vector(header: "en;q=0.5;x=1, de;q=0.4", languages: ["de", "en"], expected: "en"),
        Vector(header: "en;q=5, de/x, fr;q=0.1", languages: ["en", "fr"], expected: "fr"),
        // No field or an empty one: no preference.
        Vector(header: nil, languages: ["en", "de"], expected: nil),
        Vector(header: "", languages: ["en", "de"], expected: nil),
        Vector(header: "en", languages: [], expected: nil),
    ]

    @Test(arguments: vectors) func negotiates(_ vector: Vector) {
        let negotiator = LanguageNegotiator(languages: vector.languages)
        #expect(
            negotiator.preferredLanguageIndex(forAcceptLanguage: vector.header).map { vector.languages[$0] }
                == vector.expected)
    }

    /// One of jshttp/negotiator's `negotiator.language(offers)` assertions (test/language.js);
    /// Parley's ``LanguageNegotiator/language(forAcceptLanguage:)`` answers the first offer as the
    /// default where negotiator answers `undefined`.
    struct CrossCheck: CustomTestStringConvertible, Sendable {
        var header: String?
        var offers: [String]
        /// negotiator's answer (`nil` for `undefined`).
        var negotiator: String?
        var parley: String?
        var difference: String = ""
        var testDescription: String { "\(header.map { "'\($0)'" } ?? "no field") over \(offers)" }
    }

    static let defaultInstead = "nothing is acceptable: Parley answers its default language, the first offer"

    static let negotiatorCases: [CrossCheck] = [
        CrossCheck(header: nil, offers: ["en"], negotiator: "en", parley: "en"),
        CrossCheck(header: nil, offers: ["es", "en"], negotiator: "es", parley: "es"),
        CrossCheck(header: "*", offers: ["en"], negotiator: "en", parley: "en"),
        CrossCheck(header: "*", offers: ["es", "en"], negotiator: "es", parley: "es"),
        CrossCheck(header: "*, en", offers: ["en"], negotiator: "en", parley: "en"),
        CrossCheck(header: "*, en", offers: ["es", "en"], negotiator: "en", parley: "en"),
        CrossCheck(header: "*, en;q=0", offers: ["en"], negotiator: nil, parley: "en", difference: defaultInstead),
        CrossCheck(header: "*, en;q=0", offers: ["es", "en"], negotiator: "es", parley: "es"),
        CrossCheck(header: "*;q=0.8, en, es", offers: ["en", "nl"], negotiator: "en", parley: "en"),
        CrossCheck(header: "*;q=0.8, en, es", offers: ["ro", "nl"], negotiator: "ro", parley: "ro"),
        CrossCheck(header: "en", offers: ["en"], negotiator: "en", parley: "en"),
        CrossCheck(header: "en", offers: ["es", "en"], negotiator: "en", parley: "en"),
        CrossCheck(header: "en", offers: ["en-US"], negotiator: "en-US", parley: "en-US"),
        CrossCheck(header: "en", offers: ["en-US", "en"], negotiator: "en", parley: "en"),
        CrossCheck(header: "en", offers: ["en", "en-US"], negotiator: "en", parley: "en"),
        CrossCheck(header: "en;q=0", offers: ["es", "en"], negotiator: nil, parley: "es", difference: defaultInstead),
        CrossCheck(header: "en;q=0.8, es", offers: ["en"], negotiator: "en", parley: "en"),
        CrossCheck(header: "en;q=0.8, es", offers: ["en", "es"], negotiator: "es", parley: "es"),
        CrossCheck(header: "en;q=0.9, es;q=0.8, en;q=0.7", offers: ["es"], negotiator: "es", parley: "es"),
        CrossCheck(header: "en;q=0.9, es;q=0.8, en;q=0.7", offers: ["en", "es"], negotiator: "en", parley: "en"),
        CrossCheck(header: "en;q=0.9, es;q=0.8, en;q=0.7", offers: ["es", "en"], negotiator: "en", parley: "en"),
        CrossCheck(header: "en-US, en;q=0.8", offers: ["en", "en-US"], negotiator: "en-US", parley: "en-US"),
        CrossCheck(header: "en-US, en;q=0.8", offers: ["en-GB", "en-US"], negotiator: "en-US", parley: "en-US"),
        CrossCheck(header: "en-US, en;q=0.8", offers: ["en-GB", "es"], negotiator: "en-GB", parley: "en-GB"),
        CrossCheck(header: "en-US, en-GB", offers: ["en-US", "en-GB"], negotiator: "en-US", parley: "en-US"),
        CrossCheck(header: "en-US, en-GB", offers: ["en-GB", "en-US"], negotiator: "en-US", parley: "en-US"),
        CrossCheck(header: "en-US;q=0.8, es", offers: ["es", "en-US"], negotiator: "es", parley: "es"),
        CrossCheck(header: "en-US;q=0.8, es", offers: ["en-US", "es"], negotiator: "es", parley: "es"),
        CrossCheck(header: "en-US;q=0.8, es", offers: ["en-US", "en"], negotiator: "en-US", parley: "en-US"),
        CrossCheck(
            header: "nl;q=0.5, fr, de, en, it, es, pt, no, se, fi, ro", offers: ["nl", "fr"], negotiator: "fr",
            parley: "fr")
    ]

    @Test(arguments: negotiatorCases) func agreesWithNegotiatorOrSaysWhyNot(_ check: CrossCheck) {
        #expect(LanguageNegotiator(languages: check.offers).language(forAcceptLanguage: check.header) == check.parley)
        #expect((check.parley == check.negotiator) == check.difference.isEmpty)
    }

    @Test func answersTheDefaultWhenNothingMatches() {
        let negotiator = LanguageNegotiator(languages: ["en", "de"], defaultLanguage: "de")
        #expect(negotiator.language(forAcceptLanguage: "ja") == "de")
        #expect(negotiator.language(forAcceptLanguage: nil) == "de")
        #expect(negotiator.language(forAcceptLanguage: "en-AU") == "en")
        #expect(LanguageNegotiator(languages: ["en", "de"]).language(forAcceptLanguage: "ja") == "en")
        #expect(LanguageNegotiator(languages: []).language(forAcceptLanguage: "ja") == nil)
    }
}
