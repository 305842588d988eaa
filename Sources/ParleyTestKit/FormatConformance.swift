public import Parley
import Testing

/// Conformance checks every format module must pass, built-in or custom.
///
/// ```swift
/// import ParleyTestKit
/// import Testing
///
/// @Test func conforms() {
///     FormatConformance.expectConformance(of: KeyValueFormat(), samples: ["a": "1"])
/// }
/// ```
///
/// The checks: media type declarations are valid and do not repeat (or overlap other formats
/// you pass), every encodable type selects the format back, representative values round-trip,
/// hostile input throws `FormatError` and never another error, the body-size and depth limits
/// are honoured, and concurrent decodes agree.
public enum FormatConformance {
    /// One failed check.
    public struct Failure: Sendable, CustomStringConvertible {
        /// The check that failed (`"mediaTypes"`, `"roundTrip"`, `"badInput"`, `"limits"`, `"concurrency"`).
        public var check: String
        /// What was wrong.
        public var message: String
        public var description: String { "\(check): \(message)" }
    }

    /// What to check.
    public struct Options: Sendable {
        /// Values that must round-trip through every encodable type.
        public var samples: [Value]
        /// Whether a decoded sample must equal the original exactly; otherwise `equivalent`.
        public var equivalent: @Sendable (_ original: Value, _ decoded: Value) -> Bool
        /// Inputs that must be rejected with a `FormatError`.
        public var malformedInputs: [[UInt8]]
        /// Other formats whose concrete decodable types must not repeat this format's.
        public var otherFormats: [any Format]
        /// Whether the format nests containers, so the depth limit can be checked.
        public var checksDepth: Bool

        /// Creates options.
        public init(samples: [Value] = FormatConformance.standardSamples,
                    equivalent: @escaping @Sendable (Value, Value) -> Bool = { $0 == $1 },
                    malformedInputs: [[UInt8]] = [],
                    otherFormats: [any Format] = [],
                    checksDepth: Bool = true) {
            self.samples = samples
            self.equivalent = equivalent
            self.malformedInputs = malformedInputs
            self.otherFormats = otherFormats
            self.checksDepth = checksDepth
        }
    }

    /// Representative values for value formats: scalars, Unicode, nesting, empty containers.
    public static let standardSamples: [Value] = [
        ["name": "Ada", "age": 36, "ratio": 0.25, "active": true, "nothing": nil],
        [1, 2, 3, ["nested": ["deeper": [true, false]]]],
        ["unicode": "héllo wörld ✓ 𝄞 \u{0}\u{1F}\"\\", "empty": "", "emptyList": [], "emptyObject": [:]],
        ["big": .integer(Int64.max), "small": .integer(Int64.min), "negative": -17, "float": 1.5e300],
    ]

    /// Runs every check and returns the failures (empty when the format conforms).
    public static func check(_ format: some Format, options: Options = Options()) -> [Failure] {
        var failures: [Failure] = []
        checkMediaTypes(format, options, &failures)
        checkRoundTrips(format, options, &failures)
        checkBadInput(format, options, &failures)
        checkLimits(format, options, &failures)
        checkConcurrency(format, options, &failures)
        return failures
    }

    /// Runs every check and records each failure as a Swift Testing issue.
    public static func expectConformance(
        of format: some Format, options: Options = Options(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for failure in check(format, options: options) {
            Issue.record("\(format.name) does not conform: \(failure)", sourceLocation: sourceLocation)
        }
    }

    /// Runs every check with `samples` and records failures as Swift Testing issues.
    public static func expectConformance(
        of format: some Format, samples: [Value],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectConformance(of: format, options: Options(samples: samples), sourceLocation: sourceLocation)
    }

    static func checkMediaTypes(_ format: some Format, _ options: Options, _ failures: inout [Failure]) {
        func fail(_ message: String) { failures.append(Failure(check: "mediaTypes", message: message)) }
        if format.name.isEmpty || format.name != format.name.lowercased() {
            fail("name '\(format.name)' must be non-empty and lower-case")
        }
        if format.decodableMediaTypes.isEmpty { fail("declares no decodable media type") }
        for list in [format.decodableMediaTypes, format.encodableMediaTypes] {
            var seen = Set<MediaType>()
            for type in list {
                if !seen.insert(type).inserted { fail("\(type) is declared twice") }
                if (try? MediaType(parsing: type.description)) != type { fail("\(type) does not survive parsing its own text") }
            }
        }
        let own = Registry(formats: [format])
        for type in format.encodableMediaTypes {
            if type.isRange { fail("encodable type \(type) is a range") }
            if own.decoder(for: type) == nil { fail("encodable type \(type) is not decodable by the format itself") }
        }
        for other in options.otherFormats where other.name != format.name {
            for type in format.decodableMediaTypes where !type.isRange && other.decodableMediaTypes.contains(type) {
                fail("\(type) is also declared by \(other.name)")
            }
        }
    }

    static func checkRoundTrips(_ format: some Format, _ options: Options, _ failures: inout [Failure]) {
        for type in format.encodableMediaTypes {
            for sample in options.samples {
                do {
                    let bytes = try format.encode(sample, as: type)
                    let decoded = try format.decode(bytes, as: type)
                    if !options.equivalent(sample, decoded) {
                        failures.append(Failure(check: "roundTrip", message: "\(type): \(sample) came back as \(decoded)"))
                    }
                } catch {
                    failures.append(Failure(check: "roundTrip", message: "\(type): \(sample) threw \(error)"))
                }
            }
        }
    }

    /// Inputs every decoder must survive: empty, binary noise, unbalanced nesting, truncations.
    static func hostileInputs(_ format: some Format, _ options: Options) -> [[UInt8]] {
        var inputs: [[UInt8]] = [[], [0], [0xFF, 0xFE, 0xFD], Array(repeating: 0x5B, count: 100_000),
                                 Array(repeating: 0x7B, count: 10_000), Array("<<<<&&&&]]]]".utf8)]
        var generator = SplitMix64(seed: 0x5EED)
        for length in [1, 7, 64, 1024] {
            inputs.append((0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        }
        if let type = format.encodableMediaTypes.first, let sample = options.samples.first,
           let bytes = try? format.encode(sample, as: type) {
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 16)) {
                inputs.append(Array(bytes.prefix(cut)))
            }
        }
        return inputs + options.malformedInputs
    }

    static func checkBadInput(_ format: some Format, _ options: Options, _ failures: inout [Failure]) {
        let mediaType = format.decodableMediaTypes.first { !$0.isRange } ?? .applicationOctetStream
        for input in hostileInputs(format, options) {
            do {
                _ = try format.decode(input, as: mediaType)
            } catch is FormatError {
                continue
            } catch {
                failures.append(Failure(check: "badInput",
                                        message: "a \(input.count)-byte input threw \(type(of: error)), not FormatError: \(error)"))
            }
        }
        for input in options.malformedInputs {
            if (try? format.decode(input, as: mediaType)) != nil {
                failures.append(Failure(check: "badInput", message: "accepted malformed input \(ParleyError.excerpt(of: input, maxCharacters: 40))"))
            }
        }
    }

    static func checkLimits(_ format: some Format, _ options: Options, _ failures: inout [Failure]) {
        guard let type = format.encodableMediaTypes.first, let sample = options.samples.first,
              let bytes = try? format.encode(sample, as: type), bytes.count > 1 else { return }
        func expectLimit(_ limits: DecodingLimits, _ input: [UInt8], _ what: String) {
            do {
                _ = try format.decode(input, as: type, limits: limits)
                failures.append(Failure(check: "limits", message: "\(what) was not enforced"))
            } catch let error as FormatError where error.code == .limitExceeded {
                return
            } catch {
                failures.append(Failure(check: "limits", message: "\(what) threw \(error) instead of limitExceeded"))
            }
        }
        expectLimit(DecodingLimits(maxBodyBytes: bytes.count - 1), bytes, "maxBodyBytes")
        guard options.checksDepth else { return }
        var nested: Value = [1]
        for _ in 0..<20 { nested = [nested] }
        if let deep = try? format.encode(nested, as: type) {
            expectLimit(DecodingLimits(maxDepth: 5), deep, "maxDepth")
        }
    }

    static func checkConcurrency(_ format: some Format, _ options: Options, _ failures: inout [Failure]) {
        guard let type = format.encodableMediaTypes.first, let sample = options.samples.first,
              let bytes = try? format.encode(sample, as: type), let expected = try? format.decode(bytes, as: type) else { return }
        let results = ResultBox()
        let group = DispatchGroupLite(count: 4)
        for _ in 0..<4 {
            group.run {
                let decoded = try? format.decode(bytes, as: type)
                results.append(decoded == expected)
            }
        }
        group.wait()
        if results.values.contains(false) {
            failures.append(Failure(check: "concurrency", message: "concurrent decodes disagreed"))
        }
    }
}
