import Parley
import ParleyCSV

let format = CSVFormat()
let limits = DecodingLimits(maxBodyBytes: 1 << 20, maxNodes: 100_000)

/// Decodes arbitrary bytes with a header, without one and with the header left to detection: only
/// a value or a FormatError may come out, records read as arrays (`header=absent`) must come back
/// exactly through the writer, and the streaming reader fed one byte at a time must agree with the
/// whole-body decode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let rows: Value
    do {
        rows = try format.decode(bytes, context: DecodingContext(mediaType: "text/csv;header=absent", limits: limits))
    } catch is FormatError {
        return 0
    } catch {
        fatalError("decode threw \(type(of: error)), not FormatError: \(error)")
    }
    do {
        let again = try format.decode(try format.encode(rows), as: "text/csv;header=absent", limits: limits)
        if again != rows { fatalError("records changed through the writer: \(rows) → \(again)") }
    } catch {
        fatalError("re-encoding decoded records failed: \(error)")
    }
    if Charset.byteOrderMark(in: bytes).map({ $0.0 == .utf8 }) ?? true {
        var streamed: [Value] = []
        do {
            var reader = try CSVRowReader(limits: limits)
            for byte in bytes {
                try reader.append(CollectionOfOne(byte))
                while let row = try reader.nextRow() { streamed.append(.array(row.map(Value.string))) }
            }
            reader.finish()
            while let row = try reader.nextRow() { streamed.append(.array(row.map(Value.string))) }
        } catch {
            fatalError("the streaming reader failed where the whole body decoded: \(error)")
        }
        if .array(streamed) != rows { fatalError("streaming and whole-body records differ") }
    }
    for mediaType: MediaType in ["text/csv;header=present", "text/csv"] {
        do {
            _ = try format.decode(bytes, context: DecodingContext(mediaType: mediaType, limits: limits))
        } catch is FormatError {
        } catch {
            fatalError("decode as \(mediaType) threw \(type(of: error)), not FormatError: \(error)")
        }
    }
    return 0
}
