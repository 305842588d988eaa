import Parley
import ParleyOpenAPI
import Testing

/// Broken serializations give typed errors naming the parameter and the text, never a crash.
@Suite struct ParameterDeserializerErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let location: ParameterLocation
        let style: ParameterStyle
        let explode: Bool
        let text: String
        let schema: Value
        let code: DeserializationError.Code
        var testDescription: String { "\(location.rawValue) \(style.rawValue) \(text) → \(code)" }
    }

    static let string: Value = ["type": "string"]
    static let object: Value = ["type": "object", "properties": ["R": ["type": "integer"], "G": ["type": "integer"]]]
    static let array: Value = ["type": "array", "items": ["type": "string"]]

    static let cases: [Case] = [
        Case(location: .path, style: .simple, explode: false, text: "a%ZZ", schema: string, code: .malformedEscape),
        Case(location: .path, style: .simple, explode: false, text: "a%4", schema: string, code: .malformedEscape),
        Case(location: .path, style: .simple, explode: false, text: "%", schema: string, code: .malformedEscape),
        Case(location: .path, style: .simple, explode: false, text: "%E9t%E9", schema: string, code: .malformedEscape),
        Case(location: .query, style: .form, explode: true, text: "color=%C3", schema: string, code: .malformedEscape),
        Case(location: .query, style: .form, explode: false, text: "color=a,%G0", schema: array,
             code: .malformedEscape),
        Case(location: .cookie, style: .form, explode: false, text: "color=%zz", schema: string,
             code: .malformedEscape),
        Case(location: .path, style: .label, explode: false, text: "blue", schema: string, code: .missingPrefix),
        Case(location: .path, style: .label, explode: true, text: "", schema: array, code: .missingPrefix),
        Case(location: .path, style: .matrix, explode: false, text: "color=blue", schema: string,
             code: .missingPrefix),
        Case(location: .path, style: .matrix, explode: false, text: ";colour=blue", schema: string,
             code: .missingPrefix),
        Case(location: .path, style: .matrix, explode: true, text: ";color=blue;size=9", schema: array,
             code: .missingPrefix),
        Case(location: .path, style: .matrix, explode: false, text: ";", schema: string, code: .missingPrefix),
        Case(location: .path, style: .simple, explode: false, text: "R,100,G", schema: object, code: .malformedPairs),
        Case(location: .query, style: .form, explode: false, text: "color=R", schema: object, code: .malformedPairs),
        Case(location: .path, style: .matrix, explode: false, text: ";color=R,1,G", schema: object,
             code: .malformedPairs),
        Case(location: .query, style: .deepObject, explode: true, text: "color[R][x]=1", schema: object,
             code: .malformedDeepObject),
        Case(location: .query, style: .deepObject, explode: true, text: "color[]=1", schema: object,
             code: .malformedDeepObject),
        Case(location: .query, style: .deepObject, explode: true, text: "color[R=1", schema: object,
             code: .malformedDeepObject),
        Case(location: .query, style: .form, explode: true, text: "color=", schema: string, code: .emptyValue),
        Case(location: .query, style: .form, explode: true, text: "color", schema: string, code: .emptyValue),
    ]

    @Test(arguments: cases)
    func rejectsWithItsCode(_ item: Case) throws {
        let parameter = try ParameterDeserializer(name: "color", location: item.location, style: item.style,
                                                  explode: item.explode, schema: item.schema)
        let input: ParameterInput = switch item.location {
        case .path: ParameterInput(pathVariables: ["color": item.text])
        case .query: ParameterInput(query: item.text)
        case .header: ParameterInput(headerFields: [(name: "color", value: item.text)])
        case .cookie: ParameterInput(headerFields: [(name: "Cookie", value: item.text)])
        }
        let error = #expect(throws: DeserializationError.self) { try parameter.value(in: input) }
        #expect(error?.code == item.code)
        #expect(error?.subject == "\(item.location.rawValue) parameter 'color'")
        #expect(error?.description.contains("color") == true)
    }

    @Test(arguments: ParameterLocation.allCases)
    func rejectsAStyleItsLocationDoesNotAllow(_ location: ParameterLocation) {
        for style in ParameterStyle.allCases where !style.isAllowed(in: location) {
            let error = #expect(throws: DeserializationError.self) {
                try ParameterDeserializer(name: "color", location: location, style: style, schema: nil)
            }
            #expect(error?.code == .unsupportedStyle)
        }
    }

    @Test func anUnknownReferenceIsAnError() throws {
        let count = try ParameterDeserializer(name: "count", location: .query,
                                              schema: ["$ref": "#/components/schemas/Missing"])
        let error = #expect(throws: DeserializationError.self) { try count.value(in: ParameterInput(query: "count=1")) }
        #expect(error?.code == .unresolvedReference)
        let loop = SchemaReferenceResolver { _ in ["$ref": "#/again"] }
        let looping = try ParameterDeserializer(name: "count", location: .query, schema: ["$ref": "#/again"],
                                                resolver: loop)
        let loopError = #expect(throws: DeserializationError.self) {
            try looping.value(in: ParameterInput(query: "count=1"))
        }
        #expect(loopError?.code == .unresolvedReference)
    }

    @Test func hostileTextNeverTraps() throws {
        let texts = ["%", "%%%", ";;;;", "....", ",,,,", "=&=&=", "color[", "color]]",
                     String(repeating: "%2", count: 1000),
                     "\u{0}", "é%", "color=%FF%FE", String(repeating: "[", count: 500)]
        for location in ParameterLocation.allCases {
            for style in ParameterStyle.allCases where style.isAllowed(in: location) {
                for schema in [Self.string, Self.object, Self.array] {
                    for explode in [false, true] {
                        let parameter = try ParameterDeserializer(name: "color", location: location, style: style,
                                                                  explode: explode, schema: schema)
                        for text in texts {
                            let input = ParameterInput(pathVariables: ["color": text], query: text,
                                                       headerFields: [(name: "color", value: text),
                                                                      (name: "Cookie", value: text)])
                            _ = try? parameter.value(in: input)
                        }
                    }
                }
            }
        }
    }
}
