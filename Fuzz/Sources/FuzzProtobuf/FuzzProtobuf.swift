import FoundationEssentials
import FuzzSupport
import Parley
import ParleyProtobuf

/// The test schema's descriptor set (every scalar, repeated, map, oneof and well-known type), read once.
let format: ProtobufFormat = {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Tests/ParleyProtobufTests/Resources/oracle_test.binpb").standardized.path
    guard let data = FileManager.default.contents(atPath: path),
          let format = try? ProtobufFormat(descriptorSets: [[UInt8](data)]) else {
        fatalError("FuzzProtobuf needs \(path)")
    }
    return format
}()
let type: MediaType = "application/protobuf; messageType=parley.test.Everything"

/// Arbitrary bytes as a parley.test.Everything: only a value or a FormatError; a value encodes, and its
/// encoding decodes to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    guard let value = fuzzDecodeAndRoundTrip(format, as: type, bytes: bytes, mustEncode: true) else { return 0 }
    do {
        let again = try format.decode(try format.encode(value, as: type), as: type)
        if again != value { fatalError("the round trip changed \(value) into \(again)") }
    } catch {
        fatalError("the round trip failed: \(error)")
    }
    return 0
}
