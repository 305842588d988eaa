// Workloads shaped like the hostile inputs of issue #22, one per parser or decoder and attack:
// each builds its input for a count (keys, elements, chunks, messages) deterministically in
// code and returns the call to measure. LinearityBenchmarks measures them at N and 4N with
// package-benchmark; LinearityGate counts their instructions and fails when 4× the input costs
// more than 5× the instructions.

/// One parser or decoder fed one shape of input whose size is a count.
public struct Workload: Sendable {
    /// `area.shape`, for example `form.repeated-key`.
    public let name: String
    /// What the count counts: `keys`, `elements`, `chunks`, `messages`, …
    public let unit: String
    /// N: the gate runs N and 4N. Small enough that a linear run takes a millisecond or so.
    public let count: Int
    /// Builds the input for a count and returns the measured call (which parses it once).
    public let prepare: @Sendable (Int) -> @Sendable () throws -> Void
    /// Why this workload may grow faster than linearly and what bounds it, when a C library's own
    /// algorithm is superlinear and Parley can only cap the total work. The gate prints the ratio
    /// with this reason and does not fail on it; `nil` for every workload Parley's code controls.
    public let knownBound: String?

    public init(_ name: String, unit: String, count: Int, knownBound: String? = nil,
                prepare: @escaping @Sendable (Int) -> @Sendable () throws -> Void) {
        self.name = name
        self.unit = unit
        self.count = count
        self.knownBound = knownBound
        self.prepare = prepare
    }
}

/// Every workload, in the order the gate prints them.
public let allWorkloads: [Workload] = coreWorkloads + jsonWorkloads + yamlWorkloads + xmlWorkloads
    + propertyListWorkloads + csvWorkloads + messagePackWorkloads + cborWorkloads + imageWorkloads + recordingWorkloads
    + patternWorkloads + schemaWorkloads

/// Keeps `value` alive and opaque to the optimizer, so a measured call is never removed.
@inline(never)
public func keep<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// `line(0)` … `line(count - 1)`, joined by `separator`.
func joined(_ count: Int, separator: String = "", _ line: (Int) -> String) -> String {
    (0..<count).map(line).joined(separator: separator)
}
