import Parley
import ParleyOpenAPI
import Testing

/// Every row of OpenAPI's "Style Examples" table (3.0.3 and 3.1), read back into the value it
/// serializes: `color` as "blue", ["blue", "black", "brown"] and {"R": 100, "G": 200, "B": 150}.
@Suite struct ParameterDeserializerStyleTests {
    static let stringSchema: Value = ["type": "string"]
    static let arraySchema: Value = ["type": "array", "items": ["type": "string"]]
    static let objectSchema: Value = [
        "type": "object",
        "properties": ["R": ["type": "integer"], "G": ["type": "integer"], "B": ["type": "integer"]],
    ]
    static let blue: Value = "blue"
    static let colors: Value = ["blue", "black", "brown"]
    static let rgb: Value = ["R": 100, "G": 200, "B": 150]

    /// One table cell: where the text goes, how it is serialized, and the value it stands for.
    struct Row: CustomTestStringConvertible, Sendable {
        let location: ParameterLocation
        let style: ParameterStyle
        let explode: Bool
        let text: String
        let schema: Value
        let expected: Value
        var testDescription: String { "\(location.rawValue) \(style.rawValue) explode=\(explode) \(text)" }

        /// The request carrying `text` at `location`.
        var input: ParameterInput {
            switch location {
            case .path: ParameterInput(pathVariables: ["color": text])
            case .query: ParameterInput(query: text)
            case .header: ParameterInput(headerFields: [(name: "Color", value: text)])
            case .cookie: ParameterInput(headerFields: [(name: "Cookie", value: text)])
            }
        }
    }

    static let rows: [Row] = [
        // matrix
        Row(location: .path, style: .matrix, explode: false, text: ";color", schema: stringSchema, expected: ""),
        Row(location: .path, style: .matrix, explode: false, text: ";color=blue", schema: stringSchema, expected: blue),
        Row(location: .path, style: .matrix, explode: false, text: ";color=blue,black,brown", schema: arraySchema,
            expected: colors),
        Row(location: .path, style: .matrix, explode: false, text: ";color=R,100,G,200,B,150", schema: objectSchema,
            expected: rgb),
        Row(location: .path, style: .matrix, explode: true, text: ";color", schema: stringSchema, expected: ""),
        Row(location: .path, style: .matrix, explode: true, text: ";color=blue", schema: stringSchema, expected: blue),
        Row(location: .path, style: .matrix, explode: true, text: ";color=blue;color=black;color=brown",
            schema: arraySchema, expected: colors),
        Row(location: .path, style: .matrix, explode: true, text: ";R=100;G=200;B=150", schema: objectSchema,
            expected: rgb),
        // label (the table's dots and RFC 6570's commas when not exploded)
        Row(location: .path, style: .label, explode: false, text: ".", schema: stringSchema, expected: ""),
        Row(location: .path, style: .label, explode: false, text: ".blue", schema: stringSchema, expected: blue),
        Row(location: .path, style: .label, explode: false, text: ".blue.black.brown", schema: arraySchema,
            expected: colors),
        Row(location: .path, style: .label, explode: false, text: ".blue,black,brown", schema: arraySchema,
            expected: colors),
        Row(location: .path, style: .label, explode: false, text: ".R.100.G.200.B.150", schema: objectSchema,
            expected: rgb),
        Row(location: .path, style: .label, explode: false, text: ".R,100,G,200,B,150", schema: objectSchema,
            expected: rgb),
        Row(location: .path, style: .label, explode: true, text: ".", schema: stringSchema, expected: ""),
        Row(location: .path, style: .label, explode: true, text: ".blue", schema: stringSchema, expected: blue),
        Row(location: .path, style: .label, explode: true, text: ".blue.black.brown", schema: arraySchema,
            expected: colors),
        Row(location: .path, style: .label, explode: true, text: ".R=100.G=200.B=150", schema: objectSchema,
            expected: rgb),
        // form
        Row(location: .query, style: .form, explode: false, text: "color=", schema: stringSchema, expected: ""),
        Row(location: .query, style: .form, explode: false, text: "color=blue", schema: stringSchema, expected: blue),
        Row(location: .query, style: .form, explode: false, text: "color=blue,black,brown", schema: arraySchema,
            expected: colors),
        Row(location: .query, style: .form, explode: false, text: "color=R,100,G,200,B,150", schema: objectSchema,
            expected: rgb),
        Row(location: .query, style: .form, explode: true, text: "color=", schema: stringSchema, expected: ""),
        Row(location: .query, style: .form, explode: true, text: "color=blue", schema: stringSchema, expected: blue),
        Row(location: .query, style: .form, explode: true, text: "color=blue&color=black&color=brown",
            schema: arraySchema, expected: colors),
        Row(location: .query, style: .form, explode: true, text: "R=100&G=200&B=150", schema: objectSchema,
            expected: rgb),
        // simple
        Row(location: .path, style: .simple, explode: false, text: "blue", schema: stringSchema, expected: blue),
        Row(location: .path, style: .simple, explode: false, text: "blue,black,brown", schema: arraySchema,
            expected: colors),
        Row(location: .path, style: .simple, explode: false, text: "R,100,G,200,B,150", schema: objectSchema,
            expected: rgb),
        Row(location: .path, style: .simple, explode: true, text: "blue", schema: stringSchema, expected: blue),
        Row(location: .path, style: .simple, explode: true, text: "blue,black,brown", schema: arraySchema,
            expected: colors),
        Row(location: .path, style: .simple, explode: true, text: "R=100,G=200,B=150", schema: objectSchema,
            expected: rgb),
        // spaceDelimited, pipeDelimited (arrays in the table; objects since 3.1.1)
        Row(location: .query, style: .spaceDelimited, explode: false, text: "color=blue%20black%20brown",
            schema: arraySchema, expected: colors),
        Row(location: .query, style: .spaceDelimited, explode: false, text: "color=R%20100%20G%20200%20B%20150",
            schema: objectSchema, expected: rgb),
        Row(location: .query, style: .spaceDelimited, explode: true, text: "color=blue&color=black&color=brown",
            schema: arraySchema, expected: colors),
        Row(location: .query, style: .pipeDelimited, explode: false, text: "color=blue|black|brown",
            schema: arraySchema, expected: colors),
        Row(location: .query, style: .pipeDelimited, explode: false, text: "color=blue%7Cblack%7Cbrown",
            schema: arraySchema, expected: colors),
        Row(location: .query, style: .pipeDelimited, explode: false, text: "color=R|100|G|200|B|150",
            schema: objectSchema, expected: rgb),
        // deepObject
        Row(location: .query, style: .deepObject, explode: true, text: "color[R]=100&color[G]=200&color[B]=150",
            schema: objectSchema, expected: rgb),
        Row(location: .query, style: .deepObject, explode: true,
            text: "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150", schema: objectSchema, expected: rgb),
        // headers (simple) and cookies (form)
        Row(location: .header, style: .simple, explode: false, text: "blue", schema: stringSchema, expected: blue),
        Row(location: .header, style: .simple, explode: false, text: "blue, black, brown", schema: arraySchema,
            expected: colors),
        Row(location: .header, style: .simple, explode: false, text: "R,100,G,200,B,150", schema: objectSchema,
            expected: rgb),
        Row(location: .header, style: .simple, explode: true, text: "R=100, G=200, B=150", schema: objectSchema,
            expected: rgb),
        Row(location: .cookie, style: .form, explode: false, text: "color=blue", schema: stringSchema, expected: blue),
        Row(location: .cookie, style: .form, explode: false, text: "session=x; color=blue,black,brown",
            schema: arraySchema, expected: colors),
        Row(location: .cookie, style: .form, explode: false, text: "color=R,100,G,200,B,150", schema: objectSchema,
            expected: rgb),
        Row(location: .cookie, style: .form, explode: true, text: "color=blue; color=black; color=brown",
            schema: arraySchema, expected: colors),
        Row(location: .cookie, style: .form, explode: true, text: "R=100; G=200; B=150", schema: objectSchema,
            expected: rgb),
    ]

    @Test(arguments: rows)
    func readsTheStyleExample(_ row: Row) throws {
        let parameter = try ParameterDeserializer(name: "color", location: row.location, style: row.style,
                                                  explode: row.explode, allowEmptyValue: true, schema: row.schema)
        #expect(try parameter.value(in: row.input) == row.expected)
    }

    @Test(arguments: rows)
    func isMissingWhenTheRequestDoesNotCarryIt(_ row: Row) throws {
        guard row.location != .path else { return }  // a path variable is always matched by the template
        let parameter = try ParameterDeserializer(name: "color", location: row.location, style: row.style,
                                                  explode: row.explode, allowEmptyValue: true, schema: row.schema)
        let other: ParameterInput = switch row.location {
        case .query: ParameterInput(query: "size=9&colour=red")
        case .cookie: ParameterInput(headerFields: [(name: "Cookie", value: "session=abc")])
        default: ParameterInput(headerFields: [(name: "Size", value: "9")])
        }
        let value = try parameter.value(in: other)
        // An exploded object without declared properties would claim any member; these declare theirs.
        #expect(value == nil)
    }

    @Test func defaultsFollowTheLocation() throws {
        let query = try ParameterDeserializer(name: "color", location: .query, schema: Self.arraySchema)
        #expect(query.style == .form && query.explode)
        let path = try ParameterDeserializer(name: "color", location: .path, schema: Self.arraySchema)
        #expect(path.style == .simple && !path.explode)
        let header = try ParameterDeserializer(name: "color", location: .header, schema: Self.arraySchema)
        #expect(header.style == .simple && !header.explode)
        let cookie = try ParameterDeserializer(name: "color", location: .cookie, schema: Self.arraySchema)
        #expect(cookie.style == .form && cookie.explode)
    }
}
