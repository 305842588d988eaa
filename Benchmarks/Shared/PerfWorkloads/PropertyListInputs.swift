import Foundation
public import Parley

/// A list of `count` records with strings, integers, reals, dates, data and Booleans, for the
/// property-list paths: PropertyListBenchmarks times them, PerfGate counts them.
public func makePropertyListRecords(_ count: Int) -> Value {
    var records: [Value] = []
    records.reserveCapacity(count)
    for i in 0..<count {
        records.append([
            "id": .integer(Int64(i)), "name": .string("user-\(i) ünïcode"), "score": .float(Double(i) * 0.25),
            "active": .bool(i % 3 == 0), "created": .date(Date(timeIntervalSinceReferenceDate: Double(i) * 60)),
            "token": .bytes((0..<16).map { UInt8(truncatingIfNeeded: $0 &* i) }),
            "tags": ["alpha", "beta", .string("t\(i % 10)")],
        ])
    }
    return ["records": .array(records)]
}
