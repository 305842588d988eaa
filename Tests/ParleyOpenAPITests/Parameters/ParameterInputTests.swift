import Parley
import ParleyOpenAPI
import Testing

/// How a request's raw parts are split before parameters read them: query member names are
/// percent-decoded (`+` a space), values kept as written; a header sent on several lines is one list.
@Suite struct ParameterInputTests {
    @Test func queryMemberNamesArePercentDecodedAndValuesKeptForTheirStyle() throws {
        let name = try ParameterDeserializer(name: "first name", location: .query, schema: ["type": "string"])
        #expect(try name.value(in: ParameterInput(query: "first+name=Ada")) == "Ada")
        #expect(try name.value(in: ParameterInput(query: "first%20name=Ada%20L")) == "Ada L")
        #expect(try name.value(in: ParameterInput(query: "first%2Bname=Ada")) == nil)
        let plus = try ParameterDeserializer(name: "a+b", location: .query, schema: ["type": "string"])
        #expect(try plus.value(in: ParameterInput(query: "a%2Bb=1&&a+b=2")) == "1")
        let ids = try ParameterDeserializer(name: "ids", location: .query, explode: false,
                                            schema: ["type": "array", "items": ["type": "integer"]])
        #expect(try ids.value(in: ParameterInput(query: "x=1&ids=1,2&=3")) == [.integer(1), .integer(2)])
        let flag = try ParameterDeserializer(name: "flag", location: .query, allowEmptyValue: true,
                                             schema: ["type": "string"])
        #expect(try flag.value(in: ParameterInput(query: "flag")) == "")
        #expect(try flag.value(in: ParameterInput(query: "é=1&flag=ü")) == "ü")
    }

    @Test func aHeaderOnSeveralLinesIsOneCommaSeparatedList() throws {
        let tags = try ParameterDeserializer(name: "X-Tags", location: .header, schema: ["type": "array"])
        let input = ParameterInput(headerFields: [(name: "x-tags", value: "a, b"), (name: "Other", value: "z"),
                                                  (name: "X-TAGS", value: "c")])
        #expect(try tags.value(in: input) == ["a", "b", "c"])
        let one = try ParameterDeserializer(name: "X-One", location: .header, schema: ["type": "integer"])
        #expect(try one.value(in: ParameterInput(headerFields: [(name: "X-One", value: " 7 ")])) == .integer(7))
        #expect(try one.value(in: input) == nil)
    }
}
