import Parley
import ParleyJSON
import ParleyOpenAPI
import ParleySchema
import Testing

@Suite struct ParameterDeserializerCoercionTests {
    static let integers: Value = ["type": "array", "items": ["type": "integer"]]

    @Test func coercesTextByTheSchemaType() throws {
        let limit = try ParameterDeserializer(name: "limit", location: .query, schema: ["type": "integer"])
        #expect(try limit.value(in: ParameterInput(query: "limit=25")) == .integer(25))
        let ratio = try ParameterDeserializer(name: "ratio", location: .query, schema: ["type": "number"])
        #expect(try ratio.value(in: ParameterInput(query: "ratio=0.10")) == .number("0.10"))
        #expect(try ratio.value(in: ParameterInput(query: "ratio=-3")) == .integer(-3))
        let flag = try ParameterDeserializer(name: "flag", location: .header, schema: ["type": "boolean"])
        #expect(try flag.value(in: ParameterInput(headerFields: [(name: "FLAG", value: "true")])) == .bool(true))
        let ids = try ParameterDeserializer(name: "ids", location: .path, schema: Self.integers)
        #expect(try ids.value(in: ParameterInput(pathVariables: ["ids": "1,2,30"])) == [1, 2, 30])
    }

    @Test func aSchemaWithoutTypeCoercesByItsEnumOrConst() throws {
        let level = try ParameterDeserializer(name: "level", location: .query, schema: ["enum": [1, 2, 3]])
        #expect(try level.value(in: ParameterInput(query: "level=2")) == .integer(2))
        let on = try ParameterDeserializer(name: "on", location: .query, schema: ["const": true])
        #expect(try on.value(in: ParameterInput(query: "on=true")) == .bool(true))
        let mixed = try ParameterDeserializer(name: "mode", location: .query, schema: ["enum": ["auto", 1]])
        #expect(try mixed.value(in: ParameterInput(query: "mode=1")) == .string("1"))
    }

    @Test func aBigIntegerKeepsItsExactText() throws {
        let id = try ParameterDeserializer(name: "id", location: .path, schema: ["type": "integer"])
        let text = "123456789012345678901234567890"
        #expect(try id.value(in: ParameterInput(pathVariables: ["id": text])) == .number(text))
    }

    @Test func integersReadToTheEdgesOf64Bits() throws {
        let id = try ParameterDeserializer(name: "id", location: .path, schema: ["type": "integer"])
        func read(_ text: String) throws -> Value? { try id.value(in: ParameterInput(pathVariables: ["id": text])) }
        #expect(try read("9223372036854775807") == .integer(.max))
        #expect(try read("-9223372036854775808") == .integer(.min))
        #expect(try read("9223372036854775808") == .number("9223372036854775808"))
        #expect(try read("-9223372036854775809") == .number("-9223372036854775809"))
        #expect(try read("0") == .integer(0))
        #expect(try read("-0") == .integer(0))
        #expect(try read("-12") == .integer(-12))
        #expect(try read("1.5e3") == .number("1.5e3"))
        #expect(try read("-") == .string("-"))
        #expect(try read("-01") == .string("-01"))
        #expect(try read("12a") == .string("12a"))
    }

    @Test(arguments: ["ten", "1e", "+5", "007", " 5", "0x10", ""])
    func textThatIsNotAnIntegerStaysTextAndFailsValidation(_ text: String) throws {
        let schema: Value = ["type": "integer"]
        let limit = try ParameterDeserializer(name: "limit", location: .path, schema: schema)
        let value = try #require(try limit.value(in: ParameterInput(pathVariables: ["limit": text])))
        #expect(value == .string(text))
        let result = try JSONSchema(schema).validate(value)
        #expect(!result.isValid)
        #expect(result.errors.first?.keywordLocation == "/type")
    }

    @Test func aNullableTypeReadsEmptyTextAsNull() throws {
        let since = try ParameterDeserializer(name: "since", location: .query, allowEmptyValue: true,
                                              schema: ["type": "integer", "nullable": true])
        #expect(try since.value(in: ParameterInput(query: "since=")) == .null)
        let until = try ParameterDeserializer(name: "until", location: .query, allowEmptyValue: true,
                                              schema: ["type": ["integer", "null"]])
        #expect(try until.value(in: ParameterInput(query: "until")) == .null)
    }

    @Test func followsReferencesAndComposition() throws {
        let document: Value = [
            "components": ["schemas": [
                "Count": ["$ref": "#/components/schemas/Int"],
                "Int": ["type": "integer", "minimum": 0],
                "Point": ["allOf": [["$ref": "#/components/schemas/XY"], ["required": ["x"]]]],
                "XY": ["type": "object", "properties": ["x": ["type": "number"], "y": ["type": "number"]]],
            ]],
        ]
        let resolver = SchemaReferenceResolver(document: document)
        let count = try ParameterDeserializer(name: "count", location: .query,
                                              schema: ["$ref": "#/components/schemas/Count"], resolver: resolver)
        #expect(try count.value(in: ParameterInput(query: "count=3")) == .integer(3))
        let point = try ParameterDeserializer(name: "point", location: .query, style: .deepObject,
                                              schema: ["$ref": "#/components/schemas/Point"], resolver: resolver)
        #expect(try point.value(in: ParameterInput(query: "point[x]=1.5&point[y]=2")) == ["x": .number("1.5"), "y": 2])
    }

    @Test func percentDecodesByLocation() throws {
        let query = try ParameterDeserializer(name: "q", location: .query, schema: ["type": "string"])
        #expect(try query.value(in: ParameterInput(query: "q=a+b%2Bc%20d")) == "a b+c d")
        let reserved = try ParameterDeserializer(name: "q", location: .query, allowReserved: true,
                                                 schema: ["type": "string"])
        #expect(try reserved.value(in: ParameterInput(query: "q=a+b/c:d")) == "a+b/c:d")
        let path = try ParameterDeserializer(name: "p", location: .path, schema: ["type": "string"])
        #expect(try path.value(in: ParameterInput(pathVariables: ["p": "a+b%20%C3%A9"])) == "a+b é")
        let header = try ParameterDeserializer(name: "h", location: .header, schema: ["type": "string"])
        #expect(try header.value(in: ParameterInput(headerFields: [(name: "h", value: "a%20b")])) == "a%20b")
        let cookie = try ParameterDeserializer(name: "c", location: .cookie, schema: ["type": "string"])
        #expect(try cookie.value(in: ParameterInput(headerFields: [(name: "Cookie", value: "c=a+b%3B")])) == "a+b;")
    }

    @Test func anEscapedDelimiterStaysInItsItem() throws {
        let tags = try ParameterDeserializer(name: "tags", location: .query, explode: false,
                                             schema: ["type": "array", "items": ["type": "string"]])
        #expect(try tags.value(in: ParameterInput(query: "tags=a%2Cb,c")) == ["a,b", "c"])
        let pipes = try ParameterDeserializer(name: "tags", location: .query, style: .pipeDelimited,
                                              schema: ["type": "array", "items": ["type": "string"]])
        #expect(try pipes.value(in: ParameterInput(query: "tags=a%20b|c%25")) == ["a b", "c%"])
    }

    @Test func missingAndEmptyAreDifferent() throws {
        let name = try ParameterDeserializer(name: "name", location: .query, allowEmptyValue: true,
                                             schema: ["type": "string"])
        #expect(try name.value(in: ParameterInput(query: "other=1")) == nil)
        #expect(try name.value(in: ParameterInput(query: nil)) == nil)
        #expect(try name.value(in: ParameterInput(query: "name=")) == "")
        #expect(try name.value(in: ParameterInput(query: "name")) == "")
        let tags = try ParameterDeserializer(name: "tags", location: .path, schema: ["type": "array"])
        #expect(try tags.value(in: ParameterInput(pathVariables: ["tags": ""])) == [])
        #expect(try tags.value(in: ParameterInput()) == nil)
    }

    @Test func aRepeatedPrimitiveIsKeptAsAListForValidationToReport() throws {
        let schema: Value = ["type": "integer"]
        let page = try ParameterDeserializer(name: "page", location: .query, schema: schema)
        let value = try #require(try page.value(in: ParameterInput(query: "page=1&page=2")))
        #expect(value == [1, 2])
        #expect(try !JSONSchema(schema).isValid(value))
    }

    @Test func aContentParameterIsDecodedByItsMediaType() throws {
        let registry = Registry(formats: [JSONFormat()])
        let filter = ParameterDeserializer(name: "filter", location: .query, contentType: "application/json",
                                           schema: ["type": "object"], registry: registry)
        let query = "filter=" + PercentEscaping.rfc3986.escape(#"{"type":"t-shirt","color":"blue","size":[1,2]}"#)
        let expected: Value = ["type": "t-shirt", "color": "blue", "size": [1, 2]]
        #expect(try filter.value(in: ParameterInput(query: query)) == expected)
        #expect(try filter.value(in: ParameterInput(query: "page=1")) == nil)
        let error = #expect(throws: DeserializationError.self) {
            try filter.value(in: ParameterInput(query: "filter=%7Bbad"))
        }
        #expect(error?.code == .undecodableContent)
        #expect(error?.underlying is ParleyError)
    }
}
