import Parley
import Testing

/// Vectors written from RFC 9110 §12.5.3 (its five examples first) and §8.4.1, then a
/// cross-check against jshttp/negotiator's `encoding(array)` assertions (test/encoding.js).
///
/// `shared/corpora/real-world/negotiation` has no `Accept-Encoding` cases (all 292 are
/// `Accept`), so the cross-check uses negotiator's test file, the most used negotiation library.
@Suite struct EncodingNegotiatorTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        var header: String?
        var codings: [String]
        var expected: String?
        var preferringIdentity = false
        var testDescription: String {
            "\(header.map { "'\($0)'" } ?? "no field") over \(codings) → \(expected ?? "nil")"
        }
    }

    static let vectors: [Vector] = [
        // RFC 9110 §12.5.3's examples.
        Vector(header: "compress, gzip", codings: ["gzip", "compress"], expected: "gzip"),
        Vector(header: "compress, gzip", codings: ["br"], expected: "identity"),
        Vector(header: "", codings: ["gzip"], expected: "identity"),
        Vector(header: "*", codings: ["br", "gzip"], expected: "br"),
        Vector(header: "compress;q=0.5, gzip;q=1.0", codings: ["compress", "gzip"], expected: "gzip"),
        Vector(header: "gzip;q=1.0, identity; q=0.5, *;q=0", codings: ["br", "gzip"], expected: "gzip"),
        Vector(header: "gzip;q=1.0, identity; q=0.5, *;q=0", codings: ["br"], expected: "identity"),
        // No field: identity (a decision: RFC 9110 allows any coding).
        Vector(header: nil, codings: ["gzip", "br"], expected: "identity"),
        // Only empty elements mean an empty field.
        Vector(header: " , ,", codings: ["gzip"], expected: "identity"),
        // Identity excluded.
        Vector(header: "identity;q=0", codings: ["gzip"], expected: nil),
        Vector(header: "*;q=0", codings: ["gzip"], expected: nil),
        Vector(header: "br;q=0, identity;q=0", codings: ["gzip", "br"], expected: nil),
        Vector(header: "*;q=0, identity", codings: ["gzip"], expected: "identity"),
        Vector(header: "*;q=0", codings: [], expected: nil),
        Vector(header: "identity;q=0, gzip", codings: ["gzip"], expected: "gzip"),
        // `*` covers codings not named; a named q=0 is excluded even under `*`.
        Vector(header: "gzip;q=0, *", codings: ["gzip", "br"], expected: "br"),
        Vector(header: "*;q=0.5, br", codings: ["gzip", "br"], expected: "br"),
        // At equal q, a named coding beats one only `*` accepts.
        Vector(header: "*, br", codings: ["gzip", "br"], expected: "br"),
        // Ties go to the server's order.
        Vector(header: "gzip, deflate, br, zstd", codings: ["zstd", "br", "gzip"], expected: "zstd"),
        Vector(header: "gzip, br", codings: ["br", "gzip"], expected: "br"),
        // A coding wins a tie with an explicit identity.
        Vector(header: "identity, gzip", codings: ["gzip"], expected: "gzip"),
        Vector(header: "identity, gzip;q=0.5", codings: ["gzip"], expected: "identity"),
        // Unnamed identity ranks below any accepted coding, however low its q.
        Vector(header: "gzip;q=0.001", codings: ["gzip"], expected: "gzip"),
        // Case, x-gzip (RFC 9110 §8.4.1.3), duplicates keep the highest q.
        Vector(header: "GZIP;Q=0.5, Br;q=0.4", codings: ["br", "gzip"], expected: "gzip"),
        Vector(header: "x-gzip", codings: ["gzip"], expected: "gzip"),
        Vector(header: "X-Compress;q=0.9, gzip;q=0.1", codings: ["gzip", "compress"], expected: "compress"),
        Vector(header: "br;q=0, br;q=0.8, gzip;q=0.5", codings: ["gzip", "br"], expected: "br"),
        // Invalid elements are skipped; a bad q skips its element.
        Vector(header: "gzip;q=2, br;q=0.3", codings: ["gzip", "br"], expected: "br"),
        Vector(header: "gzip;q=\"1\", identity;q=0", codings: ["gzip"], expected: nil),
        Vector(header: "gzip/1, br", codings: ["gzip", "br"], expected: "br"),
        Vector(header: "gzip;level=9;q=.5", codings: ["gzip"], expected: "gzip"),
        // A field of only invalid elements excludes nothing: identity stays acceptable.
        Vector(header: ";;, /", codings: ["gzip"], expected: "identity"),
        // The offers: identity and `*` are never codings; duplicates and case fold.
        Vector(header: "identity;q=0, *", codings: ["identity", "*", "GZIP", "gzip"], expected: "gzip"),
        // A small body: identity whenever acceptable, a coding only when identity is excluded.
        Vector(header: "gzip, br", codings: ["br"], expected: "identity", preferringIdentity: true),
        Vector(header: "br, identity;q=0", codings: ["br"], expected: "br", preferringIdentity: true),
        Vector(header: "gzip, identity;q=0", codings: ["br"], expected: nil, preferringIdentity: true),
    ]

    @Test(arguments: vectors) func negotiates(_ vector: Vector) {
        let negotiator = EncodingNegotiator(codings: vector.codings)
        #expect(
            negotiator.preferredCoding(forAcceptEncoding: vector.header, preferringIdentity: vector.preferringIdentity)
                == vector.expected)
    }

    /// One of jshttp/negotiator's `negotiator.encoding(offers)` assertions (test/encoding.js), with
    /// Parley's answer and, where they differ, why.
    struct CrossCheck: CustomTestStringConvertible, Sendable {
        var header: String?
        /// negotiator's offers; `identity` among them is implicit in Parley.
        var offers: [String]
        /// negotiator's answer (`nil` for `undefined`).
        var negotiator: String?
        var parley: String?
        var difference: String = ""
        var testDescription: String { "\(header.map { "'\($0)'" } ?? "no field") over \(offers)" }
    }

    /// Parley always has identity to fall back on, so negotiator's "nothing among these offers"
    /// is Parley's `identity` whenever the field leaves identity acceptable.
    static let identityIsAlwaysOffered = "identity is always available in Parley, and acceptable here"

    static let negotiatorCases: [CrossCheck] = [
        CrossCheck(header: nil, offers: ["identity"], negotiator: "identity", parley: "identity"),
        CrossCheck(
            header: nil, offers: ["gzip"], negotiator: nil, parley: "identity", difference: identityIsAlwaysOffered),
        CrossCheck(header: "*", offers: ["identity"], negotiator: "identity", parley: "identity"),
        CrossCheck(header: "*", offers: ["gzip"], negotiator: "gzip", parley: "gzip"),
        CrossCheck(header: "*", offers: ["gzip", "identity"], negotiator: "gzip", parley: "gzip"),
        CrossCheck(header: "*, gzip", offers: ["identity"], negotiator: "identity", parley: "identity"),
        CrossCheck(header: "*, gzip", offers: ["gzip"], negotiator: "gzip", parley: "gzip"),
        CrossCheck(header: "*, gzip", offers: ["compress", "gzip"], negotiator: "gzip", parley: "gzip"),
        CrossCheck(header: "*, gzip;q=0", offers: ["identity"], negotiator: "identity", parley: "identity"),
        CrossCheck(
            header: "*, gzip;q=0", offers: ["gzip"], negotiator: nil, parley: "identity",
            difference: identityIsAlwaysOffered),
        CrossCheck(header: "*, gzip;q=0", offers: ["gzip", "compress"], negotiator: "compress", parley: "compress"),
        CrossCheck(header: "*;q=0", offers: ["identity"], negotiator: nil, parley: nil),
        CrossCheck(header: "*;q=0", offers: ["gzip"], negotiator: nil, parley: nil),
        CrossCheck(header: "*;q=0, identity;q=1", offers: ["identity"], negotiator: "identity", parley: "identity"),
        CrossCheck(
            header: "*;q=0, identity;q=1", offers: ["gzip"], negotiator: nil, parley: "identity",
            difference: identityIsAlwaysOffered),
        CrossCheck(header: "identity", offers: ["identity"], negotiator: "identity", parley: "identity"),
        CrossCheck(
            header: "identity", offers: ["gzip"], negotiator: nil, parley: "identity",
            difference: identityIsAlwaysOffered),
        CrossCheck(header: "identity;q=0", offers: ["identity"], negotiator: nil, parley: nil),
        CrossCheck(header: "identity;q=0", offers: ["gzip"], negotiator: nil, parley: nil),
        CrossCheck(header: "gzip", offers: ["gzip"], negotiator: "gzip", parley: "gzip"),
        CrossCheck(header: "gzip", offers: ["identity", "gzip"], negotiator: "gzip", parley: "gzip"),
        CrossCheck(header: "gzip", offers: ["identity"], negotiator: "identity", parley: "identity"),
        CrossCheck(
            header: "gzip, compress;q=0", offers: ["compress"], negotiator: nil, parley: "identity",
            difference: identityIsAlwaysOffered),
        CrossCheck(
            header: "gzip, compress;q=0", offers: ["deflate", "compress"], negotiator: nil, parley: "identity",
            difference: identityIsAlwaysOffered),
        CrossCheck(header: "gzip, compress;q=0", offers: ["gzip", "compress"], negotiator: "gzip", parley: "gzip"),
        CrossCheck(header: "gzip, deflate", offers: ["deflate", "compress"], negotiator: "deflate", parley: "deflate"),
        CrossCheck(header: "gzip, deflate", offers: ["deflate", "gzip"], negotiator: "gzip", parley: "deflate",
            difference:
                "equal q: negotiator follows the header's order, Parley the server's (RFC 9110 leaves it to the server)"
        ),
        CrossCheck(header: "gzip;q=0.8, deflate", offers: ["gzip"], negotiator: "gzip", parley: "gzip"),
        CrossCheck(header: "gzip;q=0.8, deflate", offers: ["deflate"], negotiator: "deflate", parley: "deflate"),
        CrossCheck(
            header: "gzip;q=0.8, deflate", offers: ["deflate", "gzip"], negotiator: "deflate", parley: "deflate"),
        CrossCheck(header: "gzip;q=0.8, identity;q=0.5, *;q=0.3", offers: ["gzip"], negotiator: "gzip", parley: "gzip"),
        CrossCheck(
            header: "gzip;q=0.8, identity;q=0.5, *;q=0.3", offers: ["compress", "identity"], negotiator: "identity",
            parley: "identity")
    ]

    @Test(arguments: negotiatorCases) func agreesWithNegotiatorOrSaysWhyNot(_ check: CrossCheck) {
        let answer = EncodingNegotiator(codings: check.offers).preferredCoding(forAcceptEncoding: check.header)
        #expect(answer == check.parley)
        #expect((check.parley == check.negotiator) == check.difference.isEmpty)
    }

    @Test func choiceIndexesTheCodingsInTheServersOrder() {
        let negotiator = EncodingNegotiator(codings: ["zstd", "br", "gzip", "deflate"])
        #expect(negotiator.codings == ["zstd", "br", "gzip", "deflate"])
        #expect(negotiator.choice(forAcceptEncoding: "gzip, deflate") == .coding(2))
        #expect(negotiator.choice(forAcceptEncoding: "compress") == .identity)
    }
}
