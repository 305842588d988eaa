import Parley
import Testing

/// Vectors written from RFC 9110 §12.5.2 (its example first), then a cross-check against
/// jshttp/negotiator's `charset(array)` assertions (test/charset.js), which agree on every case.
///
/// `shared/corpora/real-world/negotiation` has no `Accept-Charset` cases (all 292 are
/// `Accept`), so the cross-check uses negotiator's test file. One deliberate difference from
/// RFC 2616-era libraries: `iso-8859-1` gets no implicit q=1 (RFC 9110 dropped it).
@Suite struct CharsetNegotiatorTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        var header: String?
        var charsets: [String]
        var expected: String?
        var testDescription: String {
            "\(header.map { "'\($0)'" } ?? "no field") over \(charsets) → \(expected ?? "nil")"
        }
    }

    static let vectors: [Vector] = [
        // RFC 9110 §12.5.2's example.
        Vector(header: "iso-8859-5, unicode-1-1;q=0.8", charsets: ["utf-8", "iso-8859-5"], expected: "iso-8859-5"),
        Vector(header: "iso-8859-5, unicode-1-1;q=0.8", charsets: ["utf-8", "unicode-1-1"], expected: "unicode-1-1"),
        Vector(header: "iso-8859-5, unicode-1-1;q=0.8", charsets: ["utf-8"], expected: nil),
        // No field or an empty one: the server's first.
        Vector(header: nil, charsets: ["utf-8", "iso-8859-1"], expected: "utf-8"),
        Vector(header: "", charsets: ["utf-8", "iso-8859-1"], expected: "utf-8"),
        // `*`, q=0 exclusions, the server's order on ties, case.
        Vector(header: "*", charsets: ["utf-8", "iso-8859-1"], expected: "utf-8"),
        Vector(header: "utf-8;q=0, *", charsets: ["utf-8", "iso-8859-1"], expected: "iso-8859-1"),
        Vector(header: "ISO-8859-1, UTF-8;q=0.7", charsets: ["utf-8", "iso-8859-1"], expected: "iso-8859-1"),
        Vector(header: "iso-8859-1, utf-8", charsets: ["utf-8", "iso-8859-1"], expected: "utf-8"),
        Vector(header: "iso-8859-1;q=0.1, *;q=0.5", charsets: ["iso-8859-1", "utf-8"], expected: "utf-8"),
        Vector(header: "*;q=0", charsets: ["utf-8"], expected: nil),
        // No implicit iso-8859-1 (RFC 9110); invalid elements skipped.
        Vector(header: "utf-16", charsets: ["iso-8859-1"], expected: nil),
        Vector(header: "utf-8;q=x, iso-8859-1;q=0.2", charsets: ["utf-8", "iso-8859-1"], expected: "iso-8859-1"),
    ]

    @Test(arguments: vectors) func negotiates(_ vector: Vector) {
        #expect(
            CharsetNegotiator(charsets: vector.charsets).charset(forAcceptCharset: vector.header) == vector.expected)
    }

    /// jshttp/negotiator's `negotiator.charset(offers)` assertions: header, offers, answer.
    static let negotiatorCases: [Vector] = [
        Vector(header: nil, charsets: ["UTF-8"], expected: "UTF-8"),
        Vector(header: nil, charsets: ["UTF-8", "ISO-8859-1"], expected: "UTF-8"),
        Vector(header: "*", charsets: ["UTF-8"], expected: "UTF-8"),
        Vector(header: "*", charsets: ["UTF-8", "ISO-8859-1"], expected: "UTF-8"),
        Vector(header: "*, UTF-8", charsets: ["UTF-8"], expected: "UTF-8"),
        Vector(header: "*, UTF-8", charsets: ["UTF-8", "ISO-8859-1"], expected: "UTF-8"),
        Vector(header: "*, UTF-8;q=0", charsets: ["UTF-8", "ISO-8859-1"], expected: "ISO-8859-1"),
        Vector(header: "*, UTF-8;q=0", charsets: ["UTF-8"], expected: nil),
        Vector(header: "ISO-8859-1", charsets: ["ISO-8859-1"], expected: "ISO-8859-1"),
        Vector(header: "ISO-8859-1", charsets: ["UTF-8", "ISO-8859-1"], expected: "ISO-8859-1"),
        Vector(header: "ISO-8859-1", charsets: ["iso-8859-1"], expected: "iso-8859-1"),
        Vector(header: "ISO-8859-1", charsets: ["iso-8859-1", "ISO-8859-1"], expected: "iso-8859-1"),
        Vector(header: "ISO-8859-1", charsets: ["ISO-8859-1", "iso-8859-1"], expected: "ISO-8859-1"),
        Vector(header: "ISO-8859-1", charsets: ["utf-8"], expected: nil),
        Vector(header: "UTF-8;q=0", charsets: ["ISO-8859-1"], expected: nil),
        Vector(header: "UTF-8;q=0", charsets: ["UTF-8", "KOI8-R", "ISO-8859-1"], expected: nil),
        Vector(header: "UTF-8;q=0", charsets: ["KOI8-R"], expected: nil),
        Vector(header: "UTF-8, ISO-8859-1", charsets: ["ISO-8859-1"], expected: "ISO-8859-1"),
        Vector(header: "UTF-8, ISO-8859-1", charsets: ["UTF-8", "KOI8-R", "ISO-8859-1"], expected: "UTF-8"),
        Vector(header: "UTF-8, ISO-8859-1", charsets: ["KOI8-R"], expected: nil),
        Vector(header: "UTF-8;q=0.8, ISO-8859-1", charsets: ["ISO-8859-1"], expected: "ISO-8859-1"),
        Vector(header: "UTF-8;q=0.8, ISO-8859-1", charsets: ["UTF-8", "KOI8-R", "ISO-8859-1"], expected: "ISO-8859-1"),
        Vector(header: "UTF-8;q=0.8, ISO-8859-1", charsets: ["UTF-8", "KOI8-R"], expected: "UTF-8"),
        Vector(header: "UTF-8;q=0.9, ISO-8859-1;q=0.8, UTF-8;q=0.7", charsets: ["ISO-8859-1"], expected: "ISO-8859-1"),
        Vector(
            header: "UTF-8;q=0.9, ISO-8859-1;q=0.8, UTF-8;q=0.7", charsets: ["UTF-8", "ISO-8859-1"], expected: "UTF-8"),
        Vector(
            header: "UTF-8;q=0.9, ISO-8859-1;q=0.8, UTF-8;q=0.7", charsets: ["ISO-8859-1", "UTF-8"], expected: "UTF-8")
    ]

    @Test(arguments: negotiatorCases) func agreesWithNegotiator(_ vector: Vector) {
        #expect(
            CharsetNegotiator(charsets: vector.charsets).charset(forAcceptCharset: vector.header) == vector.expected)
    }
}
