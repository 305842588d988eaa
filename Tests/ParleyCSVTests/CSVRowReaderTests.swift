import Parley
import ParleyCSV
import Testing

@Suite struct CSVRowReaderTests {
    /// Reads `bytes` in chunks of `size` and returns every row.
    func readAll(_ bytes: [UInt8], chunkSize size: Int, charset: Charset = .utf8,
                 limits: DecodingLimits = .standard) throws -> [[String]] {
        var reader = try CSVRowReader(charset: charset, limits: limits)
        var rows: [[String]] = []
        var start = 0
        while start < bytes.count {
            try reader.append(bytes[start..<min(start + size, bytes.count)])
            while let row = try reader.nextRow() { rows.append(row) }
            start += size
        }
        reader.finish()
        while let row = try reader.nextRow() { rows.append(row) }
        return rows
    }

    static let tricky = Array(
        "\u{FEFF}id,\"quoted, \"\"x\"\"\"\r\n1,\"multi\r\nline\"\r2,é\n3,\"\"\r\n,\r\nlast,row".utf8)
    static let trickyRows = [
        ["id", "quoted, \"x\""], ["1", "multi\r\nline"], ["2", "é"], ["3", ""], ["", ""], ["last", "row"]
    ]

    @Test(arguments: [1, 2, 3, 5, 7, 64])
    func chunkBoundariesAnywhereGiveTheSameRows(chunkSize: Int) throws {
        #expect(try readAll(Self.tricky, chunkSize: chunkSize) == Self.trickyRows)
    }

    @Test func rowsArriveBeforeTheBodyEnds() throws {
        var reader = try CSVRowReader()
        try reader.append(Array("a,b\r\nc,".utf8))
        #expect(try reader.nextRow() == ["a", "b"])
        #expect(try reader.nextRow() == nil)
        try reader.append(Array("d\r".utf8))
        #expect(try reader.nextRow() == nil) // a LF may still follow the CR
        try reader.append(Array("\ne".utf8))
        #expect(try reader.nextRow() == ["c", "d"])
        #expect(try reader.nextRow() == nil)
        reader.finish()
        #expect(try reader.nextRow() == ["e"])
        #expect(try reader.nextRow() == nil)
        #expect(reader.bytesRead == 11)
    }

    @Test func aLargeBodyStreamsInChunks() throws {
        var body: [UInt8] = []
        for i in 0..<20_000 { body += Array("\(i),name \(i),\"note, \(i)\"\r\n".utf8) }
        var reader = try CSVRowReader()
        var count = 0
        var last: [String] = []
        for start in stride(from: 0, to: body.count, by: 4096) {
            try reader.append(body[start..<min(start + 4096, body.count)])
            while let row = try reader.nextRow() { count += 1; last = row }
        }
        reader.finish()
        while let row = try reader.nextRow() { count += 1; last = row }
        #expect(count == 20_000)
        #expect(last == ["19999", "name 19999", "note, 19999"])
    }

    @Test func limitsAndCharsetsAreChecked() throws {
        #expect {
            try readAll(Array("a,b\r\nc,d".utf8), chunkSize: 2, limits: DecodingLimits(maxBodyBytes: 5))
        } throws: {
            ($0 as? FormatError)?.code == .limitExceeded
        }
        #expect { try readAll(Array("a,b\r\nc,d".utf8), chunkSize: 2, limits: DecodingLimits(maxNodes: 3)) } throws: {
            ($0 as? FormatError)?.code == .limitExceeded
        }
        #expect { try CSVRowReader(charset: .utf16LittleEndian) } throws: {
            ($0 as? FormatError)?.code == .unsupportedMediaType
        }
        #expect(try readAll([0x63, 0xE9], chunkSize: 1, charset: .latin1) == [["cé"]])
        #expect { try readAll(Array("a,\"b".utf8), chunkSize: 1) } throws: { ($0 as? FormatError)?.code == .truncated }
    }
}
