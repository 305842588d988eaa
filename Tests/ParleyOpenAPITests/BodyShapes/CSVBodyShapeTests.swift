import Parley
import ParleyCSV
import ParleyOpenAPI
import ParleySchema
import Testing

@Suite struct CSVBodyShapeTests {
    static let schema: Value = [
        "type": "array",
        "items": [
            "type": "object",
            "required": ["id", "name"],
            "properties": [
                "id": ["type": "integer"], "name": ["type": "string"], "score": ["type": "number"],
                "active": ["type": "boolean"], "note": ["type": ["string", "null"]],
                "rank": ["type": ["integer", "null"]],
            ],
        ],
    ]

    func shaped(_ csv: String, header: Bool = true) throws -> Value {
        let type = MediaType("text/csv;header=\(header ? "present" : "absent")")
        let rows = try CSVFormat().decode(Array(csv.utf8), as: type)
        return try CSVBodyShape(schema: Self.schema).value(from: rows)
    }

    @Test func coercesEachColumnByItsProperty() throws {
        let value = try shaped("id,name,score,active,note,rank\r\n1,Ada,9.5,true,,\r\n2,007,10,false,x,3\r\n")
        #expect(value == [
            ["id": 1, "name": "Ada", "score": .number("9.5"), "active": true, "note": "", "rank": .null],
            ["id": 2, "name": "007", "score": 10, "active": false, "note": "x", "rank": 3],
        ])
        #expect(try JSONSchema(Self.schema).isValid(value))
    }

    @Test func leavesBadCellsAsTextAndEmptyRequiredCellsOut() throws {
        let value = try shaped("id,name,active\r\nx1,Ada,yes\r\n,Bob,true\r\n")
        #expect(value == [["id": "x1", "name": "Ada", "active": "yes"], ["name": "Bob", "active": true]])
        let result = try JSONSchema(Self.schema).validate(value)
        #expect(Set(result.errors.map(\.instanceLocation)) == ["/0/id", "/0/active", "/1"])
    }

    @Test func mapsRecordsWithoutAHeaderByPropertyOrder() throws {
        let value = try shaped("1,Ada,9.5,true,n,4\r\n2,Bob\r\n", header: false)
        #expect(value == [["id": 1, "name": "Ada", "score": .number("9.5"), "active": true, "note": "n", "rank": 4],
                          ["2", "Bob"]])
        #expect(try !JSONSchema(Self.schema).isValid(value))
    }

    @Test func coercesRecordsOfArrayItems() throws {
        let schema: Value = ["type": "array", "items": ["type": "array", "items": ["type": "integer"]]]
        let rows = try CSVFormat().decode(Array("1,2\r\n3,x\r\n".utf8), as: "text/csv;header=absent")
        #expect(try CSVBodyShape(schema: schema).value(from: rows) == [[1, 2], [3, "x"]])
    }
}
