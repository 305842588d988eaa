public import Foundation
public import Parley
public import ParleyProtobuf

/// The test schema's descriptor set and .proto file, which the oracle test keeps in step with protoc.
public let protobufResources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../Tests/ParleyProtobufTests/Resources").standardized

/// The message type of ``protobufStream(_:type:)``.
public let protobufStreamType: MediaType = "application/protobuf; messageType=parley.test.Repeated"

/// The format with the test schema's descriptor set.
public func protobufTestFormat() throws -> ProtobufFormat {
    let set = try Data(contentsOf: protobufResources.appendingPathComponent("oracle_test.binpb"))
    return try ProtobufFormat(descriptorSets: [[UInt8](set)])
}

/// About 1 MB of parley.test.Repeated: scalars of every kind in each element, from a fixed seed. BenchReport
/// times its decoding, PerfGate counts it.
public func protobufStream(_ format: ProtobufFormat, type: MediaType = protobufStreamType) throws -> [UInt8] {
    var state: UInt64 = 0x5EED_0036
    func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 11
    }
    var elements: [Value] = []
    let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    var size = 0
    while size < 1 << 20 {
        let element: Value = [
            "fDouble": .float(Double(next() % 1_000_000) / 1000), "fFloat": .float(Double(next() % 10_000) / 8),
            "fInt32": .integer(Int64(next() % 100_000) - 50_000), "fInt64": .string(String(Int64(bitPattern: next()))),
            "fUint32": .integer(Int64(next() % 4_000_000_000)),
            "fSint64": .string(String(Int64(next() % 1_000_000) - 500_000)),
            "fFixed64": .string(String(next())), "fBool": .bool(next() % 2 == 0),
            "fString": .string(words[Int(next() % 8)] + " " + words[Int(next() % 8)] + " \(next() % 1000)"),
            "fBytes": .string(Data((0..<12).map { _ in UInt8(truncatingIfNeeded: next()) }).base64EncodedString()),
            "fColor": .string(["COLOR_RED", "COLOR_GREEN", "COLOR_BLUE"][Int(next() % 3)]),
        ]
        size += try format.encode(element, as: "application/protobuf; messageType=parley.test.Scalars").count + 3
        elements.append(element)
    }
    let numbers = (0..<2000).map { Value.string(String($0 * 7919)) }
    return try format.encode(["rMessage": .array(elements), "rInt64": .array(numbers)], as: type)
}
