import FoundationEssentials
import Parley
import ParleyCSV
import ParleyTestKit
import Testing

@Suite struct CSVFormatTests {
    let csv = CSVFormat()

    func rows(_ text: String, as type: MediaType = "text/csv") throws -> Value {
        try csv.decode(Array(text.utf8), as: type)
    }

    func code(_ body: [UInt8], as type: MediaType = "text/csv") -> FormatError.Code? {
        do {
            _ = try csv.decode(body, as: type)
            return nil
        } catch let error as FormatError {
            return error.code
        } catch {
            return FormatError.Code("not a FormatError")
        }
    }

    // MARK: RFC 4180 §2, rules 1–7

    @Test func rfc4180Examples() throws {
        // 1. Records on separate lines, delimited by CRLF.
        #expect(try rows("aaa,bbb,ccc\r\nzzz,yyy,xxx\r\n") == [["aaa", "bbb", "ccc"], ["zzz", "yyy", "xxx"]])
        // 2. The last record may have no ending line break.
        #expect(try rows("aaa,bbb,ccc\r\nzzz,yyy,xxx") == [["aaa", "bbb", "ccc"], ["zzz", "yyy", "xxx"]])
        // 3. An optional header line (header=present).
        #expect(try rows("field_name,field_name2\r\naaa,bbb\r\n", as: "text/csv;header=present")
                == [["field_name": "aaa", "field_name2": "bbb"]])
        // 4. Spaces are part of a field; the last field has no trailing comma.
        #expect(try rows("aaa , bbb,ccc ") == [["aaa ", " bbb", "ccc "]])
        // 5. Fields may be enclosed in double quotes.
        #expect(try rows("\"aaa\",\"bbb\",\"ccc\"\r\nzzz,yyy,xxx") == [["aaa", "bbb", "ccc"], ["zzz", "yyy", "xxx"]])
        // 6. Quoted fields hold line breaks, quotes and commas.
        #expect(
            try rows("\"aaa\",\"b\r\nbb\",\"ccc\"\r\nzzz,yyy,xxx") == [["aaa", "b\r\nbb", "ccc"], ["zzz", "yyy", "xxx"]]
        )
        // 7. A quote inside a quoted field is doubled.
        #expect(try rows("\"aaa\",\"b\"\"bb\",\"ccc\"") == [["aaa", "b\"bb", "ccc"]])
    }

    @Test func theHeaderParameterChoosesObjectsOrArrays() throws {
        let body = "id,name\r\n1,Ada\r\n2,\"Lovelace, A.\"\r\n"
        #expect(try rows(body, as: "text/csv;header=present")
                == [["id": "1", "name": "Ada"], ["id": "2", "name": "Lovelace, A."]])
        #expect(try rows(body, as: "text/csv; header=PRESENT").arrayValue?.first?.objectValue != nil)
        #expect(try rows(body, as: "text/csv;header=absent") == [["id", "name"], ["1", "Ada"], ["2", "Lovelace, A."]])
        // Without the parameter, a text first record above records with a number is a header.
        #expect(try rows(body) == [["id": "1", "name": "Ada"], ["id": "2", "name": "Lovelace, A."]])
        #expect(try rows("id,name\r\n", as: "text/csv;header=present") == [])
        #expect(try rows("", as: "text/csv;header=present") == [])
        #expect(code(Array("a,b\r\n1\r\n".utf8), as: "text/csv;header=present") == .malformed)
    }

    @Test(arguments: [
        ("name,age\r\nAda,36\r\nBob,41\r\n", true),     // text, then a number in every later record
        ("name,age\r\nAda,\r\n", true),                  // an empty field is not text
        ("name,city\r\nAda,London\r\n", false),          // all text: nothing tells a header apart
        ("name,age\r\nAda,36\r\nBob\r\n", false),        // a record of another width
        ("name,age\r\nAda,36\r\nBob,Paris\r\n", false),  // a later record of text only
        ("1,2\r\n3,4\r\n", false),                        // a first record with numbers
        ("name,age\r\n", false),                           // no later record
    ])
    func aHeaderIsDetectedWithoutTheParameter(body: String, isHeader: Bool) throws {
        let detected = try rows(body).arrayValue?.first?.objectValue != nil
        #expect(detected == isHeader)
        #expect(try rows(body, as: "text/csv;header=absent").arrayValue?.allSatisfy { $0.arrayValue != nil } == true)
    }

    @Test func lineEndingsEmptyFieldsAndEmptyLines() throws {
        #expect(try rows("a,b\nc,d\n") == [["a", "b"], ["c", "d"]])
        #expect(try rows("a,b\rc,d") == [["a", "b"], ["c", "d"]])
        #expect(try rows("a,,\r\n,b,") == [["a", "", ""], ["", "b", ""]])
        #expect(try rows("a\r\n\r\nb") == [["a"], [""], ["b"]])
        #expect(try rows("") == [])
        #expect(try rows("\"\"") == [[""]])
        #expect(try rows("\u{FEFF}a,b") == [["a", "b"]])
    }

    @Test func grammarErrorsAreLocated() throws {
        #expect(code(Array("a\"b,c".utf8)) == .malformed)
        #expect(code(Array("\"a\"b,c".utf8)) == .malformed)
        #expect(code(Array("a,\"bc\r\n".utf8)) == .truncated)
        do {
            _ = try rows("a,b\r\n\"x\r\ny\",z\r\nq\"r")
            Issue.record("expected an error")
        } catch let error as FormatError {
            #expect(error.code == .malformed)
            #expect(error.location?.line == 4)
            #expect(error.location?.byteOffset == 16)
        }
    }

    @Test func charsetsAreHonoured() throws {
        #expect(try csv.decode([0x63, 0x61, 0x66, 0xE9], as: "text/csv;charset=iso-8859-1") == [["café"]])
        #expect(try csv.decode([0x80, 0x2C, 0x41], as: "text/csv;charset=windows-1252") == [["€", "A"]])
        // UTF-16LE with a byte-order mark and no parameter: "a,é\r\n".
        #expect(try csv.decode([0xFF, 0xFE, 0x61, 0, 0x2C, 0, 0xE9, 0, 0x0D, 0, 0x0A, 0]) == [["a", "é"]])
        #expect(code([0x61, 0xC3, 0x28]) == .invalidText)
        #expect(code([0x61, 0xC3], as: "text/csv;charset=us-ascii") == .invalidText)
        #expect(code(Array("a".utf8), as: "text/csv;charset=ebcdic") == .unsupportedMediaType)
        let latin1 = try csv.encode([["café", "ü"]], as: "text/csv;charset=iso-8859-1")
        #expect(latin1 == [0x63, 0x61, 0x66, 0xE9, 0x2C, 0xFC, 0x0D, 0x0A])
        #expect { try csv.encode([["✓"]], as: "text/csv;charset=iso-8859-1") } throws: {
            ($0 as? FormatError)?.code == .unsupportedValue
        }
    }

    // MARK: Encoding

    @Test func encodesObjectsWithAHeaderFromTheirKeys() throws {
        let value: Value = [
            ["id": 1, "name": "Ada"], ["name": "Lovelace, A.", "id": 2, "note": "said \"hi\"\nthen left"]
        ]
        let expected = "id,name,note\r\n1,Ada,\r\n2,\"Lovelace, A.\",\"said \"\"hi\"\"\nthen left\"\r\n"
        #expect(String(decoding: try csv.encode(value), as: UTF8.self) == expected)
        #expect(String(decoding: try csv.encode(value, as: "text/csv;header=absent"), as: UTF8.self)
                == "1,Ada,\r\n2,\"Lovelace, A.\",\"said \"\"hi\"\"\nthen left\"\r\n")
        let back = try csv.decode(try csv.encode(value), as: "text/csv;header=present")
        #expect(back == [["id": "1", "name": "Ada", "note": ""],
                         ["id": "2", "name": "Lovelace, A.", "note": "said \"hi\"\nthen left"]])
    }

    @Test func encodesArraysOfArraysAndScalarsAsText() throws {
        let value: Value = [[1, 2.5, true, nil, .number("12345678901234567890"), .bytes([1, 2, 3]),
                             .date(Date(timeIntervalSince1970: 0)), .tagged("x", "t")]]
        #expect(String(decoding: try csv.encode(value), as: UTF8.self)
                == "1,2.5,true,,12345678901234567890,AQID,1970-01-01T00:00:00Z,t\r\n")
        #expect(String(decoding: try csv.encode([[""], ["a"]]), as: UTF8.self) == "\"\"\r\na\r\n")
        #expect(try csv.encode([]) == [])
        // Found by fuzzing: a field opening the body with U+FEFF must not read back as a byte-order mark.
        #expect(try csv.decode(try csv.encode([["\u{FEFF}x"]])) == [["\u{FEFF}x"]])
    }

    @Test(arguments: [
        ["a": 1] as Value, [[["nested"]]], [["a": ["b": 1]]], [["a": 1], ["b"]], [[]], [[:]], ["flat", "strings"],
    ])
    func shapesWithoutACSVFormThrow(value: Value) {
        #expect { try csv.encode(value) } throws: { ($0 as? FormatError)?.code == .unsupportedValue }
    }

    @Test func conformsToTheKit() {
        let samples: [Value] = [
            [["name", "age"], ["Ada", "thirty-six"]],
            [["a,b", "quote \" here", "line\r\nbreak", "", " spaced "], ["lf\nonly", "cr\ronly", "x", "y", "z"]],
            [["héllo wörld ✓ 𝄞"]],
            [],
        ]
        FormatConformance.expectConformance(of: csv, options: .init(
            samples: samples,
            malformedInputs: [Array("a\"b".utf8), Array("\"open".utf8), Array("\"a\"b".utf8)],
            checksDepth: false))
    }
}
