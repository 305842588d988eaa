import Parley
import ParleyOpenAPI
import ParleySchema
import ParleyXML
import Testing

/// XML bodies written as documents, decoded by `XMLFormat`, then shaped by the schema. The
/// array cases are the XML Object examples of OpenAPI 3.0.3 and 3.1 (`animals`, `animal`, `aliens`).
@Suite struct XMLBodyShapeTests {
    /// The shaped value of `xml` under `schema`.
    func shaped(_ xml: String, _ schema: Value, resolver: SchemaReferenceResolver = .none,
                limits: DecodingLimits = .standard) throws -> Value {
        let decoded = try XMLFormat().decode(Array(xml.utf8), limits: limits)
        return try XMLBodyShape(schema: schema, resolver: resolver).value(from: decoded)
    }

    /// A wrapper object with one `animals` property of `animals`' schema.
    func zoo(_ animals: Value) -> Value {
        ["type": "object", "properties": ["animals": animals]]
    }

    @Test func readsAnAttributeAndANamespacedElement() throws {
        let person: Value = [
            "type": "object",
            "properties": [
                "id": ["type": "integer", "format": "int32", "xml": ["attribute": true]],
                "name": ["type": "string",
                         "xml": ["namespace": "http://example.com/schema/sample", "prefix": "sample"]],
            ],
        ]
        let xml = """
            <Person id="123">
                <sample:name xmlns:sample="http://example.com/schema/sample">example</sample:name>
            </Person>
            """
        #expect(try shaped(xml, person) == ["id": 123, "name": "example"])
        // Another prefix bound to the same namespace is the same name.
        let other = #"<Person id="7" xmlns:s="http://example.com/schema/sample"><s:name>x</s:name></Person>"#
        #expect(try shaped(other, person) == ["id": 7, "name": "x"])
        // The right prefix bound to another namespace is not: the element stays undeclared.
        let wrong = #"<Person id="7"><sample:name xmlns:sample="urn:other">x</sample:name></Person>"#
        #expect(try shaped(wrong, person) == ["id": 7, "sample:name": "x"])
    }

    @Test func aPrefixWithoutANamespaceMatchesThatPrefix() throws {
        let schema: Value = ["type": "object", "properties": ["name": ["type": "string", "xml": ["prefix": "s"]]]]
        #expect(try shaped(#"<p xmlns:s="urn:a" xmlns:t="urn:a"><s:name>x</s:name></p>"#, schema) == ["name": "x"])
        #expect(try shaped(#"<p xmlns:s="urn:a" xmlns:t="urn:a"><t:name>x</t:name></p>"#, schema) == ["t:name": "x"])
    }

    @Test func readsAnElementRenamedByXMLName() throws {
        let schema = zoo(["type": "string", "xml": ["name": "animal"]])
        #expect(try shaped("<zoo><animal>cat</animal></zoo>", schema) == ["animals": "cat"])
    }

    @Test func readsAnUnwrappedArrayUnderThePropertyName() throws {
        let schema = zoo(["type": "array", "items": ["type": "string"]])
        #expect(try shaped("<zoo><animals>cat</animals><animals>dog</animals></zoo>", schema)
                    == ["animals": ["cat", "dog"]])
        #expect(try shaped("<zoo><animals>cat</animals></zoo>", schema) == ["animals": ["cat"]])
    }

    @Test func readsUnwrappedItemsRenamedAndIgnoresTheExternalName() throws {
        let renamed = zoo(["type": "array", "items": ["type": "string", "xml": ["name": "animal"]]])
        let xml = "<zoo><animal>cat</animal><animal>dog</animal></zoo>"
        #expect(try shaped(xml, renamed) == ["animals": ["cat", "dog"]])
        let external = zoo(["type": "array", "items": ["type": "string", "xml": ["name": "animal"]],
                            "xml": ["name": "aliens"]])
        #expect(try shaped(xml, external) == ["animals": ["cat", "dog"]])
    }

    @Test func readsWrappedArraysByEachNamingRule() throws {
        let sameName = zoo(["type": "array", "items": ["type": "string"], "xml": ["wrapped": true]])
        #expect(try shaped("<zoo><animals><animals>cat</animals><animals>dog</animals></animals></zoo>", sameName)
                    == ["animals": ["cat", "dog"]])
        let inner = zoo(["type": "array", "items": ["type": "string", "xml": ["name": "animal"]],
                         "xml": ["wrapped": true]])
        #expect(try shaped("<zoo><animals><animal>cat</animal><animal>dog</animal></animals></zoo>", inner)
                    == ["animals": ["cat", "dog"]])
        let both = zoo(["type": "array", "items": ["type": "string", "xml": ["name": "animal"]],
                        "xml": ["name": "aliens", "wrapped": true]])
        #expect(try shaped("<zoo><aliens><animal>cat</animal><animal>dog</animal></aliens></zoo>", both)
                    == ["animals": ["cat", "dog"]])
        let outer = zoo(["type": "array", "items": ["type": "string"], "xml": ["name": "aliens", "wrapped": true]])
        #expect(try shaped("<zoo><aliens><aliens>cat</aliens><aliens>dog</aliens></aliens></zoo>", outer)
                    == ["animals": ["cat", "dog"]])
        #expect(try shaped("<zoo><aliens/></zoo>", outer) == ["animals": []])
    }

    @Test func coercesTextAndLeavesWhatDoesNotReadForValidation() throws {
        let schema: Value = [
            "type": "object",
            "required": ["id", "price", "inStock"],
            "properties": [
                "id": ["type": "integer"], "price": ["type": "number"], "inStock": ["type": "boolean"],
                "title": ["type": "string"],
            ],
        ]
        let good = "<book><id> 7 </id><price>12.50</price><inStock>true</inStock><title> Dune </title></book>"
        let value = try shaped(good, schema)
        #expect(value == ["id": 7, "price": .number("12.50"), "inStock": true, "title": " Dune "])
        #expect(try JSONSchema(schema).isValid(value))
        let bad = try shaped("<book><id>seven</id><price>12.50</price><inStock>yes</inStock></book>", schema)
        #expect(bad == ["id": "seven", "price": .number("12.50"), "inStock": "yes"])
        let result = try JSONSchema(schema).validate(bad)
        #expect(Set(result.errors.map(\.instanceLocation)) == ["/id", "/inStock"])
    }

    @Test func followsReferencesIntoComponents() throws {
        let document: Value = [
            "components": ["schemas": [
                "Book": ["type": "object",
                         "properties": ["id": ["type": "integer", "xml": ["attribute": true]],
                                        "authors": ["type": "array", "xml": ["wrapped": true],
                                                    "items": ["$ref": "#/components/schemas/Author"]]]],
                "Author": ["type": "object", "xml": ["name": "author"],
                           "properties": ["name": ["type": "string"], "born": ["type": "integer"]]],
            ]],
        ]
        let xml = """
            <?xml version="1.0"?>
            <book id="1">
              <authors>
                <author><name>Ada</name><born>1815</born></author>
                <author><name>Alan</name><born>1912</born></author>
              </authors>
            </book>
            """
        let value = try shaped(xml, ["$ref": "#/components/schemas/Book"],
                               resolver: SchemaReferenceResolver(document: document))
        #expect(value == ["id": 1, "authors": [["name": "Ada", "born": 1815], ["name": "Alan", "born": 1912]]])
    }

    @Test func anXMLObjectBesideARefWinsOverTheReferencedOne() throws {
        let document: Value = ["components": ["schemas": [
            "Tag": ["type": "string", "xml": ["name": "tag"]],
        ]]]
        let schema: Value = ["type": "object", "properties": [
            "main": ["$ref": "#/components/schemas/Tag", "xml": ["name": "primary"]],
            "other": ["$ref": "#/components/schemas/Tag"],
        ]]
        let value = try shaped("<post><primary>a</primary><tag>b</tag></post>", schema,
                               resolver: SchemaReferenceResolver(document: document))
        #expect(value == ["main": "a", "other": "b"])
    }

    @Test func readsARootArrayAsItsWrapper() throws {
        let schema: Value = ["type": "array", "items": ["type": "object", "xml": ["name": "book"],
                                                        "properties": ["id": ["type": "integer"]]]]
        #expect(try shaped("<books><book><id>1</id></book><book><id>2</id></book></books>", schema)
                    == [["id": 1], ["id": 2]])
        #expect(try shaped("<books><book><id>1</id></book></books>", schema) == [["id": 1]])
        #expect(try shaped("<books/>", schema) == [])
    }

    @Test func keepsUndeclaredMembersSoAdditionalPropertiesReportsThem() throws {
        let schema: Value = ["type": "object", "additionalProperties": false,
                             "properties": ["id": ["type": "integer", "xml": ["attribute": true]]]]
        let value = try shaped(#"<b xmlns="urn:x" id="1" lang="en"><extra>x</extra></b>"#, schema)
        #expect(value == ["id": 1, "@lang": "en", "extra": "x"])
        let result = try JSONSchema(schema).validate(value)
        #expect(!result.isValid)
    }

    @Test func aPrimitiveWithAttributesReadsItsText() throws {
        let schema: Value = ["type": "object", "properties": ["price": ["type": "number"]]]
        #expect(try shaped(#"<item><price currency="EUR">9.99</price></item>"#, schema) == ["price": .number("9.99")])
    }

    @Test func aRepeatedElementWhereTheSchemaWantsOneStaysAList() throws {
        let schema: Value = ["type": "object", "properties": ["id": ["type": "integer"]]]
        let value = try shaped("<b><id>1</id><id>2</id></b>", schema)
        #expect(value == ["id": [1, 2]])
        #expect(try !JSONSchema(schema).isValid(value))
    }

    @Test func aDeepDocumentIsALimitNotACrash() throws {
        let tree: Value = ["type": "object", "properties": ["node": ["$ref": "#/Tree"]]]
        let resolver = SchemaReferenceResolver { $0 == "#/Tree" ? tree : nil }
        let depth = XMLBodyShape.maxDepth + 5
        let xml = "<node>" + String(repeating: "<node>", count: depth) + String(repeating: "</node>", count: depth)
            + "</node>"
        var limits = DecodingLimits.standard
        limits.maxDepth = depth * 2
        let error = #expect(throws: DeserializationError.self) {
            try shaped(xml, tree, resolver: resolver, limits: limits)
        }
        #expect(error?.code == .limitExceeded)
        let shallow = "<node><node><node>leaf</node></node></node>"
        #expect(try shaped(shallow, tree, resolver: resolver) == ["node": ["node": "leaf"]])
    }
}
