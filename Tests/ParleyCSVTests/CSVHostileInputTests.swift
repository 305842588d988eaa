import Parley
import ParleyCSV
import Testing

/// Generated hostile bodies: every field and record counts against `maxNodes` before it is made,
/// so a body of separators stops at the limit instead of allocating one string per separator.
@Suite struct CSVHostileInputTests {
    let csv = CSVFormat()
    let small = DecodingLimits(maxNodes: 1_000)

    @Test func aRecordOfEmptyFieldsStopsAtTheNodeLimitWhileItIsRead() throws {
        // 2 million empty fields in one record: 32 MB of strings before the limit was checked.
        let body = [UInt8](repeating: UInt8(ascii: ","), count: 2_000_000)
        for mediaType: MediaType in ["text/csv", "text/csv;header=present"] {
            let error = try #require(throws: FormatError.self) { try csv.decode(body, as: mediaType, limits: small) }
            #expect(error.code == .limitExceeded)
            #expect(error.limit?.name == "maxNodes")
            // The record is node 1; field 1,000, one too many, starts at byte 999.
            #expect(error.location?.byteOffset == 999)
        }
    }

    @Test func emptyRecordsCountAsNodes() throws {
        let body = [UInt8](repeating: UInt8(ascii: "\n"), count: 1_000_000)
        let error = try #require(throws: FormatError.self) { try csv.decode(body, limits: small) }
        #expect(error.limit?.name == "maxNodes")
        // One record of one field per line: 500 lines fit.
        let fits = [UInt8](repeating: UInt8(ascii: "\n"), count: 500)
        #expect(try csv.decode(fits, limits: small).arrayValue?.count == 500)
    }

    @Test func theRowReaderStopsInsideARecordToo() throws {
        var reader = try CSVRowReader(limits: small)
        try reader.append(Array(repeating: UInt8(ascii: ","), count: 100_000))
        reader.finish()
        #expect(throws: FormatError.self) { try reader.nextRow() }
    }

    @Test func aRecordExactlyAtTheLimitIsRead() throws {
        // One record (1 node) of 999 fields (998 commas): 1,000 nodes.
        let body = [UInt8](repeating: UInt8(ascii: ","), count: 998)
        #expect(try csv.decode(body, limits: small).arrayValue?.first?.arrayValue?.count == 999)
        let over = [UInt8](repeating: UInt8(ascii: ","), count: 999)
        #expect(throws: FormatError.self) { try csv.decode(over, limits: small) }
    }

    @Test func longQuotedFieldsAndLongLinesStayOneField() throws {
        // A quoted field of 500,000 doubled quotes and a 1 MB unquoted field: one field each.
        let quoted = Array(("\"" + String(repeating: "\"\"", count: 500_000) + "\"\n").utf8)
        #expect(try csv.decode(quoted).arrayValue?.first?.arrayValue?.first?.stringValue?.utf8.count == 500_000)
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(try csv.decode(long).arrayValue?.first?.arrayValue?.first?.stringValue?.utf8.count == 1_000_000)
    }
}
