import Parley
import ParleyFixtures

let reader = RecordingReader(maxFileBytes: 1 << 20)
let statusLine = Array("HTTP/".utf8)

/// Arbitrary bytes as a raw HTTP capture (`curl -i` output): the input is read by the raw HTTP
/// reader alone (prefixed with `HTTP/` when it does not start so). Only a recording or a
/// RecordingError may come out; every body lies within the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    if !bytes.starts(with: statusLine) { bytes = statusLine + bytes }
    let recording: Recording
    do {
        recording = try reader.read(bytes: bytes, path: "fuzz")
    } catch {
        return 0
    }
    let total = recording.exchanges.reduce(0) { $0 + ($1.response.body?.count ?? 0) }
    if total > bytes.count { fatalError("bodies hold \(total) bytes, more than the \(bytes.count) read") }
    return 0
}
