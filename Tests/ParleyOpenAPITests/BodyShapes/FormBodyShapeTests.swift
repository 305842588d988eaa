import Parley
import ParleyJSON
import ParleyOpenAPI
import ParleySchema
import Testing

@Suite struct FormBodyShapeTests {
    static let schema: Value = [
        "type": "object",
        "properties": [
            "id": ["type": "integer"],
            "tags": ["type": "array", "items": ["type": "string"]],
            "scores": ["type": "array", "items": ["type": "integer"]],
            "address": ["type": "object", "properties": ["city": ["type": "string"], "zip": ["type": "integer"]]],
            "meta": ["type": "object"],
            "color": ["type": "object", "properties": ["R": ["type": "integer"], "G": ["type": "integer"]]],
        ],
    ]

    @Test func readsEachPropertyByItsEncoding() throws {
        let form = FormBodyShape(
            schema: Self.schema,
            encoding: [
                "scores": .init(style: .pipeDelimited, explode: false),
                "address": .init(style: .deepObject),
                "meta": .init(contentType: "application/json"),
                "color": .init(explode: false),
            ],
            registry: Registry(formats: [JSONFormat()]))
        let body = "id=7&tags=a+b&tags=c%26d&scores=1|2|3&address[city]=Paris&address[zip]=75001"
            + "&meta=%7B%22k%22%3A%5B1%5D%7D&color=R,1,G,2&note=hi+there"
        let value = try form.value(fromBody: body)
        #expect(value == [
            "id": 7, "tags": ["a b", "c&d"], "scores": [1, 2, 3], "address": ["city": "Paris", "zip": 75001],
            "meta": ["k": [1]], "color": ["R": 1, "G": 2], "note": "hi there",
        ])
    }

    @Test func readsAnExplodedObjectFromItsPropertiesMembers() throws {
        let schema: Value = ["type": "object", "properties": [
            "id": ["type": "integer"],
            "address": ["type": "object", "properties": ["city": ["type": "string"], "zip": ["type": "integer"]]],
        ]]
        let value = try FormBodyShape(schema: schema).value(fromBody: "id=1&city=Rome&zip=100&x=1&x=2")
        #expect(value == ["id": 1, "address": ["city": "Rome", "zip": 100], "x": ["1", "2"]])
    }

    @Test func undeclaredMembersFailAdditionalPropertiesFalse() throws {
        let schema: Value = ["type": "object", "additionalProperties": false,
                             "properties": ["id": ["type": "integer"]]]
        let value = try FormBodyShape(schema: schema).value(fromBody: "id=x&debug=1")
        #expect(value == ["id": "x", "debug": "1"])
        let result = try JSONSchema(schema).validate(value)
        #expect(result.errors.count >= 2)
    }

    @Test func aMalformedEscapeNamesTheProperty() {
        let error = #expect(throws: DeserializationError.self) {
            try FormBodyShape(schema: Self.schema).value(fromBody: "id=%G1")
        }
        #expect(error?.code == .malformedEscape)
        #expect(error?.subject == "form property 'id'")
    }

    @Test func aStyleAQueryCannotUseIsAnError() {
        let form = FormBodyShape(schema: Self.schema, encoding: ["tags": .init(style: .matrix)])
        let error = #expect(throws: DeserializationError.self) { try form.value(fromBody: "tags=a") }
        #expect(error?.code == .unsupportedStyle)
    }
}
