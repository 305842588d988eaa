import FoundationEssentials
import Parley
import Testing

@Suite struct TypedJSONTests {
    static let samples: [Value] = [
        .integer(Int64.min), .integer(0), .number("18446744073709551615"), .number("1e400"), .float(1.5), .float(-0.0),
        .float(.infinity), .float(-.infinity), .date(Date(timeIntervalSinceReferenceDate: 730_902_896.25)),
        .date(Date(timeIntervalSinceReferenceDate: 1e300)), .date(Date(timeIntervalSince1970: 253_539_713_695)),
        .bytes([0, 1, 2, 255]), .tagged("uid", .integer(7)), .tagged("!custom", ["a": 1]),
        ["nested": [.null, true, "text", ["$notAMarker": "kept"]]],
    ]

    @Test(arguments: samples)
    func roundTripsExactly(value: Value) throws {
        let typed = value.typedJSON
        #expect(try Value(typedJSON: typed) == value)
    }

    @Test func showsEachKindAsDocumented() {
        #expect(Value.integer(42).typedJSON == ["$int": "42"])
        #expect(Value.number("12345678901234567890123").typedJSON == ["$int": "12345678901234567890123"])
        #expect(Value.number("1e400").typedJSON == ["$real": "1e400"])
        #expect(Value.float(.nan).typedJSON == ["$real": "nan"])
        #expect(Value.float(-0.0).typedJSON == ["$real": "-0.0"])
        #expect(Value.date(Date(timeIntervalSince1970: 0)).typedJSON == ["$date": "1970-01-01T00:00:00Z"])
        #expect(Value.bytes(Array("hi".utf8)).typedJSON == ["$data": "aGk="])
        #expect(Value.tagged("uid", .integer(3)).typedJSON == ["$uid": 3])
    }

    @Test func nanSurvivesAsNaN() throws {
        let back = try Value(typedJSON: ["$real": "nan"])
        #expect(back.doubleValue?.isNaN == true)
    }

    @Test func dateSince2001WinsOverItsText() throws {
        let value = try Value(typedJSON: ["$date": "1999-12-31T23:59:59.999Z", "since2001": -31_622_400.001])
        #expect(value == .date(Date(timeIntervalSinceReferenceDate: -31_622_400.001)))
    }

    @Test(
        arguments: [["$int": "1.5"], ["$real": "x"], ["$date": "yesterday"], ["$data": "***"], ["$uid": "a"]] as [Value]
    )
    func rejectsBrokenMarkers(typed: Value) {
        #expect(throws: FormatError.self) { try Value(typedJSON: typed) }
    }
}
