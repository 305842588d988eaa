import FoundationEssentials
import Parley
import Testing

/// Strings convert to the number, Boolean, Decimal or date a `Decodable` type asks for, as the
/// formats whose scalars are all text (XML, CSV, forms, query strings) need, and only for them.
@Suite struct ValueDecoderTextScalarTests {
    let textual = ValueDecoder(convertsTextScalars: true)

    @Test func typedFormatsKeepStringsStrings() throws {
        struct Book: Decodable { var id: Int }
        #expect(throws: DecodingError.self) { try ValueDecoder().decode(Book.self, from: ["id": "7"]) }
        #expect(throws: DecodingError.self) { try ValueDecoder().decode(Bool.self, from: "true") }
        #expect(throws: DecodingError.self) { try ValueDecoder().decode(Double.self, from: "1.5") }
        #expect(try textual.decode(Book.self, from: ["id": "7"]).id == 7)
    }

    struct Widths: Codable, Equatable {
        var int: Int, int8: Int8, int16: Int16, int32: Int32, int64: Int64
        var uint: UInt, uint8: UInt8, uint16: UInt16, uint32: UInt32, uint64: UInt64
        var double: Double, float: Float, decimal: Decimal, flag: Bool, off: Bool
    }

    @Test func textConvertsToEveryIntegerWidthRealDecimalAndBool() throws {
        let value: Value = [
            "int": "-7", "int8": " 127\n", "int16": "-32768", "int32": "+5", "int64": "9223372036854775807",
            "uint": "7", "uint8": "255", "uint16": "65535", "uint32": "4294967295",
            "uint64": "18446744073709551615", "double": "12.5", "float": "0.25e1",
            "decimal": "3.14159265358979323846", "flag": "true", "off": "0"
        ]
        let decoded = try textual.decode(Widths.self, from: value)
        #expect(decoded == Widths(int: -7, int8: 127, int16: -32768, int32: 5, int64: .max, uint: 7, uint8: 255,
                                  uint16: 65535, uint32: .max, uint64: .max, double: 12.5, float: 2.5,
                                  decimal: Decimal(string: "3.14159265358979323846")!, flag: true, off: false))
    }

    @Test func textThatIsNotTheTypeNamesPathTextAndType() throws {
        struct Book: Decodable { var id: Int }
        let error = try #require(throws: DecodingError.self) {
            try textual.decode(Book.self, from: ["id": "seven"])
        }
        guard case .typeMismatch(let type, let context) = error else { Issue.record("\(error)"); return }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
        #expect(context.codingPath.map(\.stringValue) == ["id"])
        #expect(context.debugDescription.contains("'seven'"))
        #expect(context.debugDescription.contains("Int"))
    }

    @Test func integerTextOutOfRangeIsDataCorrupted() throws {
        let error = try #require(throws: DecodingError.self) { try textual.decode([Int8].self, from: ["300"]) }
        guard case .dataCorrupted(let context) = error else { Issue.record("\(error)"); return }
        #expect(context.codingPath.map(\.stringValue) == ["Index 0"])
    }

    @Test(arguments: ["1.5", "yes", "", "0x10", "1e", "nan"])
    func textRejectedAsBoolOrNumber(_ text: String) throws {
        #expect(throws: DecodingError.self) { try textual.decode(Bool.self, from: .string(text + "!")) }
        if text != "1.5" {
            #expect(throws: DecodingError.self) { try textual.decode(Double.self, from: .string(text)) }
        }
        #expect(throws: DecodingError.self) { try textual.decode(Int.self, from: .string(text)) }
    }

    @Test func datesFromTextFollowTheStrategy() throws {
        let seconds = ValueDecoder(dateDecodingStrategy: .secondsSince1970, convertsTextScalars: true)
        #expect(try seconds.decode(Date.self, from: "1700000000") == Date(timeIntervalSince1970: 1_700_000_000))
        let millis = ValueDecoder(dateDecodingStrategy: .millisecondsSince1970, convertsTextScalars: true)
        #expect(try millis.decode(Date.self, from: "1500") == Date(timeIntervalSince1970: 1.5))
        let deferred = ValueDecoder(dateDecodingStrategy: .deferredToDate, convertsTextScalars: true)
        #expect(try deferred.decode(Date.self, from: "10") == Date(timeIntervalSinceReferenceDate: 10))
        #expect(
            try ValueDecoder().decode(Date.self, from: "2024-05-06T07:08:09Z")
                == Date(timeIntervalSince1970: 1_714_979_289))
    }

    @Test func decimalKeepsItsDigitsBothWays() throws {
        let price = Decimal(string: "19.99")!
        let encoded = try ValueEncoder().encode(price)
        #expect(encoded == .number("19.99"))
        #expect(try ValueDecoder().decode(Decimal.self, from: encoded) == price)
        #expect(try ValueDecoder().decode(Decimal.self, from: 0.1) == Decimal(string: "0.1")!)
    }

    @Test func singleValuesReadAsArraysOnlyWhenAsked() throws {
        struct Tagged: Decodable, Equatable { var tags: [String]; var ids: [Int] }
        let value: Value = ["tags": "a", "ids": "3"]
        #expect(throws: DecodingError.self) { try textual.decode(Tagged.self, from: value) }
        let lenient = ValueDecoder(decodesSingleValuesAsArrays: true, convertsTextScalars: true)
        #expect(try lenient.decode(Tagged.self, from: value) == Tagged(tags: ["a"], ids: [3]))
        #expect(try lenient.decode(Tagged.self, from: ["ids": "3"]) == Tagged(tags: [], ids: [3]))
    }
}
