import Parley
import ParleyFixtures

let reader = RecordingReader(maxFileBytes: 1 << 20)
let checker = ExchangeChecker(options: CheckOptions(registry: .builtIn, maxDecompressedBytes: 1 << 20))

/// Reads arbitrary bytes as a recording (HAR, cassette or raw HTTP, detected from the content):
/// only a recording or a RecordingError may come out, and every exchange read must check
/// without trapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    let recording: Recording
    do {
        recording = try reader.read(bytes: bytes, path: "fuzz")
    } catch {
        return 0
    }
    for exchange in recording.exchanges {
        _ = checker.check(exchange, path: "fuzz", kind: recording.kind)
    }
    return 0
}
