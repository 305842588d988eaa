public import Parley
public import Testing

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
/// The checks: media type declarations are valid, do not repeat, and do not overlap the other
/// formats you pass (by default the core's built-in formats) so that which format decodes a type
/// would depend on registration order; every encodable type selects the format back;
/// representative values round-trip (a difference is reported with its path); hostile input
/// throws `FormatError` and never another error; the body-size and depth limits are honoured;
/// decoding is deterministic and concurrent decodes of different bodies on several threads agree
/// with the same decodes on one thread.
///
/// ``report(for:options:)`` returns what it found as a ``Report``, failures and skipped checks;
/// ``expectConformance(of:options:sourceLocation:)`` records each failure as a Swift Testing
/// issue and the checks that could not run as one warning.
public enum FormatConformance {
    /// One failed check.
    public struct Failure: Sendable, CustomStringConvertible {
        /// The check that failed (`"mediaTypes"`, `"roundTrip"`, `"badInput"`, `"limits"`, `"concurrency"`).
        public var check: String
        /// What was wrong.
        public var message: String
        public var description: String { "\(check): \(message)" }
    }

    /// A check, or part of one, that did not run, and why.
    public struct Skip: Sendable, CustomStringConvertible {
        /// The check that did not run (`"roundTrip"`, `"limits.maxBodyBytes"`, `"limits.maxDepth"`, `"concurrency"`).
        public var check: String
        /// Why it did not run.
        public var reason: String
        /// Whether the options turned it off (``Options/checksDepth`` is `false`), rather than
        /// the format giving it nothing to work on.
        public var isOptedOut: Bool
        public var description: String { "\(check) skipped: \(reason)" }
    }

    /// What the checks found for one format.
    public struct Report: Sendable, CustomStringConvertible {
        /// The format's `name`.
        public var formatName: String
        /// The failed checks, in the order they ran; empty when the format conforms.
        public var failures: [Failure]
        /// The checks that did not run.
        public var skipped: [Skip]
        /// Whether no check failed.
        public var conforms: Bool { failures.isEmpty }

        /// The failures of one check (`"limits"`, …).
        public func failures(of check: String) -> [Failure] { failures.filter { $0.check == check } }

        /// One line per failure and per skipped check, after a line naming the format.
        public var description: String {
            let head =
                conforms ? "\(formatName) conforms" : "\(formatName) does not conform (\(failures.count) failures)"
            return ([head] + failures.map { "  \($0)" } + skipped.map { "  \($0)" }).joined(separator: "\n")
        }
    }

    /// What to check.
    public struct Options: Sendable {
        /// Values that must round-trip through every encodable type.
        public var samples: [Value]
        /// Whether a decoded sample must equal the original exactly; otherwise `equivalent`.
        public var equivalent: @Sendable (_ original: Value, _ decoded: Value) -> Bool
        /// Inputs that must be rejected with a `FormatError`.
        public var malformedInputs: [[UInt8]]
        /// Other formats a registry may hold beside this one: no media type may be claimed by
        /// both so that which one decodes it depends on registration order.
        public var otherFormats: [any Format]
        /// Whether the format nests containers, so the depth limit can be checked.
        public var checksDepth: Bool
        /// Well-formed bodies the format decodes, labelled with its first concrete decodable
        /// type. The limit and concurrency checks use them beside the encoded samples; for a
        /// decode-only format they are the only input those checks have.
        public var bodies: [[UInt8]]

        /// Creates options.
        public init(samples: [Value] = FormatConformance.standardSamples,
                    equivalent: @escaping @Sendable (Value, Value) -> Bool = { $0 == $1 },
                    malformedInputs: [[UInt8]] = [],
                    otherFormats: [any Format] = Registry.builtInFormats,
                    checksDepth: Bool = true,
                    bodies: [[UInt8]] = []) {
            self.samples = samples
            self.equivalent = equivalent
            self.malformedInputs = malformedInputs
            self.otherFormats = otherFormats
            self.checksDepth = checksDepth
            self.bodies = bodies
        }
    }

    /// Representative values for value formats: scalars, Unicode, nesting, empty containers.
    public static let standardSamples: [Value] = [
        ["name": "Ada", "age": 36, "ratio": 0.25, "active": true, "nothing": nil],
        [1, 2, 3, ["nested": ["deeper": [true, false]]]],
        ["unicode": "héllo wörld ✓ 𝄞 \u{0}\u{1F}\"\\", "empty": "", "emptyList": [], "emptyObject": [:]],
        ["big": .integer(Int64.max), "small": .integer(Int64.min), "negative": -17, "float": 1.5e300],
    ]

    /// Runs every check and returns what it found.
    ///
    /// - Parameters:
    ///   - format: The format to check.
    ///   - options: The samples, inputs and other formats to check it with.
    /// - Returns: The failures (empty when the format conforms) and the checks that did not run.
    public static func report(for format: some Format, options: Options = Options()) -> Report {
        var report = Report(formatName: format.name, failures: [], skipped: [])
        checkMediaTypes(format, options, &report)
        checkRoundTrips(format, options, &report)
        checkBadInput(format, options, &report)
        checkLimits(format, options, &report)
        checkConcurrency(format, options, &report)
        return report
    }

    /// Runs every check and returns the failures (empty when the format conforms).
    public static func check(_ format: some Format, options: Options = Options()) -> [Failure] {
        report(for: format, options: options).failures
    }

    /// Runs every check, records each failure as a Swift Testing issue, and the checks that
    /// could not run (other than those the options turned off) as one warning.
    public static func expectConformance(
        of format: some Format, options: Options = Options(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let report = report(for: format, options: options)
        for failure in report.failures {
            Issue.record("\(format.name) does not conform: \(failure)", sourceLocation: sourceLocation)
        }
        let unrun = report.skipped.filter { !$0.isOptedOut }
        if !unrun.isEmpty {
            let message = "\(format.name): \(unrun.count) conformance checks did not run: "
                + unrun.map(\.description).joined(separator: "; ")
            Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: sourceLocation)
        }
    }

    /// Runs every check with `samples` and records failures as Swift Testing issues.
    public static func expectConformance(
        of format: some Format, samples: [Value],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectConformance(of: format, options: Options(samples: samples), sourceLocation: sourceLocation)
    }

    // MARK: - Media types

    static func checkMediaTypes(_ format: some Format, _ options: Options, _ report: inout Report) {
        func fail(_ message: String) { report.failures.append(Failure(check: "mediaTypes", message: message)) }
        if format.name.isEmpty || format.name != format.name.lowercased() {
            fail("name '\(format.name)' must be non-empty and lower-case")
        }
        if format.decodableMediaTypes.isEmpty { fail("declares no decodable media type") }
        for list in [format.decodableMediaTypes, format.encodableMediaTypes] {
            var seen = Set<MediaType>()
            for type in list {
                if !seen.insert(type).inserted { fail("\(type) is declared twice") }
                if (try? MediaType(parsing: type.description)) != type {
                    fail("\(type) does not survive parsing its own text")
                }
            }
        }
        let own = Registry(formats: [format])
        for type in format.encodableMediaTypes {
            if type.isRange { fail("encodable type \(type) is a range") }
            if own.decoder(for: type) == nil { fail("encodable type \(type) is not decodable by the format itself") }
        }
        // Two formats overlap where a registry holding both picks a different decoder for the
        // same type depending on which was registered first.
        for other in options.otherFormats where other.name != format.name {
            let forward = Registry(formats: [format, other])
            let backward = Registry(formats: [other, format])
            var reported = Set<MediaType>()
            for declared in format.decodableMediaTypes + other.decodableMediaTypes
            where reported.insert(declared.withoutParameters).inserted {
                let probe = probeType(declared)
                guard let first = forward.decoder(for: probe), let second = backward.decoder(for: probe),
                      first.format.name != second.format.name else { continue }
                let ours = first.format.name == format.name ? first : second
                let theirs = first.format.name == format.name ? second : first
                fail(
                    "\(declared.withoutParameters) overlaps: \(format.name) claims it as \(ours.registeredType) "
                        + "(\(ours.rank)) and "
                        + "\(other.name) as \(theirs.registeredType) (\(theirs.rank)), so which one decodes it depends "
                        + "on registration order"
                )
            }
        }
    }

    /// A concrete type a declared type or range matches: itself, or a made-up member of the range.
    static func probeType(_ type: MediaType) -> MediaType {
        guard type.isRange || type.subtype.hasPrefix("*+") else { return type.withoutParameters }
        if type.type == "*" { return MediaType(type: "application", subtype: "x-parley-probe") }
        if let suffix = type.suffix { return MediaType(type: type.type, subtype: "x-parley-probe+\(suffix)") }
        return MediaType(type: type.type, subtype: "x-parley-probe")
    }

    // MARK: - Round trips

    static func checkRoundTrips(_ format: some Format, _ options: Options, _ report: inout Report) {
        if format.encodableMediaTypes.isEmpty {
            report.skipped.append(
                Skip(
                    check: "roundTrip", reason: "\(format.name) encodes no media type (decode-only)", isOptedOut: false)
            )
            return
        }
        if options.samples.isEmpty {
            report.skipped.append(Skip(check: "roundTrip", reason: "no samples", isOptedOut: false))
            return
        }
        for type in format.encodableMediaTypes {
            for (index, sample) in options.samples.enumerated() {
                do {
                    let bytes = try format.encode(sample, as: type)
                    let decoded = try format.decode(bytes, as: type)
                    if !options.equivalent(sample, decoded) {
                        let difference =
                            ValueDifference.first(between: sample, and: decoded)
                            ?? "it is not equivalent to the original"
                        report.failures.append(
                            Failure(
                                check: "roundTrip",
                                message:
                                    "\(type): sample \(index + 1) is lossy: \(difference) (sample "
                                        + "\(ValueDifference.render(sample)))"
                            ))
                    }
                } catch {
                    report.failures.append(
                        Failure(
                            check: "roundTrip",
                            message: "\(type): sample \(index + 1) \(ValueDifference.render(sample)) threw \(error)"))
                }
            }
        }
    }

    // MARK: - Bad input

    /// Inputs every decoder must survive: empty, binary noise, unbalanced nesting, truncations.
    static func hostileInputs(_ format: some Format, _ options: Options) -> [[UInt8]] {
        var inputs: [[UInt8]] = [[], [0], [0xFF, 0xFE, 0xFD], Array(repeating: 0x5B, count: 100_000),
                                 Array(repeating: 0x7B, count: 10_000), Array("<<<<&&&&]]]]".utf8)]
        var generator = SplitMix64(seed: 0x5EED)
        for length in [1, 7, 64, 1024] {
            inputs.append((0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        }
        let body: [UInt8]? = {
            if let type = format.encodableMediaTypes.first, let sample = options.samples.first,
               let bytes = try? format.encode(sample, as: type) { return bytes }
            return options.bodies.first
        }()
        if let bytes = body {
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 16)) {
                inputs.append(Array(bytes.prefix(cut)))
            }
        }
        return inputs + options.malformedInputs
    }

    /// The type bodies are labelled with: the first concrete decodable type.
    static func decodingType(_ format: some Format) -> MediaType {
        format.decodableMediaTypes.first { !$0.isRange } ?? .applicationOctetStream
    }

    static func checkBadInput(_ format: some Format, _ options: Options, _ report: inout Report) {
        let mediaType = decodingType(format)
        for input in hostileInputs(format, options) {
            do {
                _ = try format.decode(input, as: mediaType)
            } catch is FormatError {
                continue
            } catch {
                report.failures.append(
                    Failure(
                        check: "badInput",
                        message: "a \(input.count)-byte input threw \(type(of: error)), not FormatError: \(error)"))
            }
        }
        for input in options.malformedInputs {
            if (try? format.decode(input, as: mediaType)) != nil {
                report.failures.append(
                    Failure(
                        check: "badInput",
                        message: "accepted malformed input \(ParleyError.excerpt(of: input, maxCharacters: 40))"))
            }
        }
    }

    // MARK: - Limits

    static func checkLimits(_ format: some Format, _ options: Options, _ report: inout Report) {
        func skip(_ part: String, _ reason: String, optedOut: Bool = false) {
            report.skipped.append(Skip(check: "limits.\(part)", reason: reason, isOptedOut: optedOut))
        }
        func expectLimit(
            _ name: String, _ value: Int, _ limits: DecodingLimits, _ type: MediaType, _ input: [UInt8], _ what: String
        ) {
            do {
                _ = try format.decode(input, as: type, limits: limits)
                report.failures.append(
                    Failure(
                        check: "limits",
                        message:
                            "\(name) \(value) was not enforced: \(what) decoded without error; the decoder must throw "
                                + "FormatError.limitExceeded (read the limits from the DecodingContext)"
                    ))
            } catch let error as FormatError where error.code == .limitExceeded {
                return
            } catch {
                report.failures.append(
                    Failure(
                        check: "limits", message: "\(name) \(value): \(what) threw \(error) instead of limitExceeded"))
            }
        }
        // A body the format decodes: an encoded sample, or one the caller gave.
        var body: (type: MediaType, bytes: [UInt8])?
        if let type = format.encodableMediaTypes.first, let sample = options.samples.first,
           let bytes = try? format.encode(sample, as: type), (try? format.decode(bytes, as: type)) != nil {
            body = (type, bytes)
        } else if let bytes = options.bodies.first(where: {
            (try? format.decode($0, as: decodingType(format))) != nil
        }) {
            body = (decodingType(format), bytes)
        }
        if let body, body.bytes.count > 1 {
            let limit = body.bytes.count - 1
            expectLimit(
                "maxBodyBytes", limit, DecodingLimits(maxBodyBytes: limit), body.type, body.bytes,
                "a \(body.bytes.count)-byte body")
        } else {
            skip("maxBodyBytes", body == nil
                 ? "no body that decodes: \(format.name) encodes no sample and options.bodies has none"
                 : "the only body is \(body?.bytes.count ?? 0) byte long")
        }
        guard options.checksDepth else { return skip("maxDepth", "options.checksDepth is false", optedOut: true) }
        guard let type = format.encodableMediaTypes.first else {
            return skip(
                "maxDepth", "\(format.name) encodes no media type (decode-only), so there is no nested body to decode")
        }
        var nested: Value = [1]
        for _ in 0..<20 { nested = [nested] }
        do {
            let deep = try format.encode(nested, as: type)
            expectLimit("maxDepth", 5, DecodingLimits(maxDepth: 5), type, deep, "arrays nested 21 deep")
        } catch {
            skip("maxDepth", "encoding arrays nested 21 deep as \(type) threw \(error)")
        }
    }

    // MARK: - Concurrency

    /// The outcome of one decode, comparable across threads.
    enum Outcome: Equatable, Sendable {
        case value(Value)
        case error(String)

        init(_ body: () throws -> Value) {
            do { self = .value(try body()) } catch { self = .error("\(error)") }
        }

        var rendered: String {
            switch self {
            case .value(let value): ValueDifference.render(value)
            case .error(let message): "error \(message)"
            }
        }
    }

    /// Threads and rounds of the concurrency check: each thread decodes every body this many
    /// times, starting at a different one, so different bodies are decoded at the same time.
    static let concurrentThreads = 8
    static let concurrentRounds = 16

    static func checkConcurrency(_ format: some Format, _ options: Options, _ report: inout Report) {
        var bodies: [(type: MediaType, bytes: [UInt8])] = []
        if let type = format.encodableMediaTypes.first {
            bodies += options.samples.compactMap { sample in (try? format.encode(sample, as: type)).map { (type, $0) } }
        }
        bodies += options.bodies.map { (decodingType(format), $0) }
        guard !bodies.isEmpty else {
            report.skipped.append(
                Skip(
                    check: "concurrency",
                    reason: "no body to decode: \(format.name) encodes no sample and options.bodies is empty",
                    isOptedOut: false))
            return
        }
        let inputs = bodies
        let expected = inputs.map { input in Outcome { try format.decode(input.bytes, as: input.type) } }
        for (index, input) in inputs.enumerated() {
            let again = Outcome { try format.decode(input.bytes, as: input.type) }
            if again != expected[index] {
                report.failures.append(
                    Failure(
                        check: "concurrency",
                        message:
                            "decoding body \(index + 1) (\(input.bytes.count) bytes) twice on one thread gave "
                                + "\(expected[index].rendered), "
                            + "then \(again.rendered): the format keeps state from one call to the next"))
                return
            }
        }
        let mismatches = MismatchBox()
        let group = DispatchGroupLite(count: concurrentThreads)
        for thread in 0..<concurrentThreads {
            group.run {
                for round in 0..<concurrentRounds {
                    for step in 0..<inputs.count {
                        let index = (thread + round + step) % inputs.count
                        let outcome = Outcome { try format.decode(inputs[index].bytes, as: inputs[index].type) }
                        mismatches.record(outcome == expected[index] ? nil : (index, outcome))
                    }
                }
            }
        }
        group.wait()
        let (count, total, first) = mismatches.summary
        if let (index, outcome) = first {
            report.failures.append(
                Failure(
                    check: "concurrency",
                    message:
                        "\(count) of \(total) decodes on \(concurrentThreads) threads at once differed from the same "
                            + "decode on one thread "
                        + "(first: body \(index + 1) came back as \(outcome.rendered), expected "
                        + "\(expected[index].rendered)): "
                        + "the format shares mutable state between concurrent calls, so it is not safe as a Sendable "
                        + "value"
                ))
        }
    }
}
