import Parley
import ParleyJSON
import ParleyTestKit
import Testing

/// The conformance kit catches each broken format in `BrokenFormats.swift` with a message naming
/// what is wrong, and does not fault the JSON format they wrap.
@Suite struct FormatConformanceTests {
    @Test func theWrappedJSONFormatConforms() {
        let report = FormatConformance.report(for: JSONFormat())
        #expect(report.conforms, "\(report)")
        #expect(report.skipped.isEmpty, "\(report)")
    }

    @Test func overlappingMediaTypesFailNamingTheTypeAndBothFormats() {
        let report = FormatConformance.report(for: OverlappingFormat(), options: .init(otherFormats: [JSONFormat()]))
        let messages = report.failures(of: "mediaTypes").map(\.message)
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "application/json overlaps: vendor-json claims it as application/json (exact) and json as "
                        + "application/json (exact)"
                )
            },
            "\(report)")
        // The two suffix ranges tie too: a +json type goes to whichever is registered first.
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "application/*+json overlaps: vendor-json claims it as application/*+json (suffix range) and json "
                        + "as application/*+json (suffix range)"
                )
                    && $0.hasSuffix("depends on registration order")
            }, "\(report)")
        // Its own vendor type is more specific than JSON's range: not an overlap.
        #expect(!messages.contains { $0.hasPrefix("application/vnd.vendor+json") }, "\(report)")
        #expect(report.failures.allSatisfy { $0.check == "mediaTypes" }, "\(report)")
    }

    @Test func withoutTheOtherFormatThereIsNoOverlap() {
        let report = FormatConformance.report(for: OverlappingFormat(), options: .init(otherFormats: []))
        #expect(report.conforms, "\(report)")
    }

    @Test func aLossyRoundTripFailsNamingThePathAndBothValues() {
        let report = FormatConformance.report(for: LossyFormat())
        let messages = report.failures(of: "roundTrip").map(\.message)
        #expect(messages.contains {
            $0.hasPrefix("application/x-lossy: sample 1 is lossy: at $.age: 36 (integer) came back as 36.0 (float)")
        }, "\(report)")
        #expect(messages.contains { $0.contains("at $[0]: 1 (integer) came back as 1.0 (float)") }, "\(report)")
        #expect(report.failures.allSatisfy { $0.check == "roundTrip" }, "\(report)")
    }

    @Test func aDecoderThatIgnoresTheLimitsFailsNamingEachLimit() {
        let report = FormatConformance.report(for: LimitIgnoringFormat())
        let messages = report.failures(of: "limits").map(\.message)
        #expect(messages.count == 2, "\(report)")
        #expect(
            messages.contains {
                $0.hasPrefix("maxBodyBytes ") && $0.contains("was not enforced") && $0.contains("limitExceeded")
            }, "\(report)")
        #expect(
            messages.contains {
                $0.hasPrefix("maxDepth 5 was not enforced: arrays nested 21 deep decoded without error")
            }, "\(report)")
        #expect(report.failures.allSatisfy { $0.check == "limits" }, "\(report)")
    }

    @Test func sharedMutableStateFailsTheConcurrencyCheck() {
        let report = FormatConformance.report(for: SharedScratchFormat())
        let messages = report.failures(of: "concurrency").map(\.message)
        #expect(messages.count == 1, "\(report)")
        #expect(
            messages.first?.contains("threads at once differed from the same decode on one thread") == true, "\(report)"
        )
        #expect(messages.first?.contains("not safe as a Sendable value") == true, "\(report)")
        // On one thread it is right: nothing else fails.
        #expect(report.failures.allSatisfy { $0.check == "concurrency" }, "\(report)")
    }

    @Test func stateKeptFromCallToCallFailsOnOneThread() {
        let report = FormatConformance.report(for: StatefulFormat())
        #expect(
            report.failures(of: "concurrency").contains {
                $0.message.contains("twice on one thread") && $0.message.contains("keeps state")
            },
            "\(report)")
    }

    @Test func aDecodeOnlyFormatIsToldWhichChecksWereSkipped() {
        let report = FormatConformance.report(for: DecodeOnlyFormat())
        #expect(report.conforms, "\(report)")
        #expect(
            Set(report.skipped.map(\.check)) == ["roundTrip", "limits.maxBodyBytes", "limits.maxDepth", "concurrency"],
            "\(report)")
        #expect(report.skipped.allSatisfy { !$0.isOptedOut })
        #expect(
            report.skipped.first { $0.check == "roundTrip" }?.reason
                == "decode-only encodes no media type (decode-only)")
        #expect("\(report)".contains("concurrency skipped: no body to decode"), "\(report)")
    }

    @Test func bodiesLetADecodeOnlyFormatRunTheLimitAndConcurrencyChecks() {
        let bodies: [[UInt8]] = [Array(#"{"a": [1, 2, {"b": null}]}"#.utf8), Array("[true, false, 3.5]".utf8)]
        let report = FormatConformance.report(for: DecodeOnlyFormat(), options: .init(bodies: bodies))
        #expect(report.conforms, "\(report)")
        #expect(Set(report.skipped.map(\.check)) == ["roundTrip", "limits.maxDepth"], "\(report)")
        // The same bodies catch a decode-only format that ignores its limits.
        struct LimitlessDecodeOnly: Format {
            var name: String { "limitless-decode-only" }
            var decodableMediaTypes: [MediaType] { ["application/x-limitless-decode-only"] }
            func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
                try JSONFormat().decode(bytes, context: DecodingContext(mediaType: jsonType))
            }
        }
        let limitless = FormatConformance.report(for: LimitlessDecodeOnly(), options: .init(bodies: bodies))
        #expect(
            limitless.failures(of: "limits").map(\.message).contains { $0.hasPrefix("maxBodyBytes ") }, "\(limitless)")
    }

    @Test func turningTheDepthCheckOffIsReportedAsOptedOut() {
        let report = FormatConformance.report(for: JSONFormat(), options: .init(checksDepth: false))
        #expect(report.conforms)
        #expect(report.skipped.map(\.check) == ["limits.maxDepth"])
        #expect(report.skipped.first?.isOptedOut == true)
    }
}

/// A type range overlaps when another format claims the same range.
@Suite struct TypeRangeOverlapTests {
    struct AnyText: Format {
        var name: String { "any-text" }
        var decodableMediaTypes: [MediaType] { ["text/x-any", "text/*"] }
        func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
            .string(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test func aSecondTextRangeOverlapsTheBuiltInTextFormat() {
        // The default other formats are the core's built-ins, and TextFormat declares text/*.
        let report = FormatConformance.report(for: AnyText(), options: .init(bodies: [Array("x".utf8)]))
        #expect(report.failures(of: "mediaTypes").map(\.message).contains {
            $0.hasPrefix("text/* overlaps: any-text claims it as text/* (type range) and text as text/* (type range)")
        }, "\(report)")
    }
}
