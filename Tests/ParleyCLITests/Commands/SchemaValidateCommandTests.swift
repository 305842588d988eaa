import Foundation
import Testing

/// `parley schema validate`: instances of any format against a schema, exit 0/1/2, and `--batch`.
@Suite struct SchemaValidateCommandTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ contents: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
        return url.path
    }

    static let schema = #"""
        {"type": "object", "required": ["id", "quantity"],
         "properties": {"id": {"type": "integer"}, "quantity": {"type": "integer", "minimum": 1, "maximum": 100}}}
        """#

    @Test func aValidYAMLInstanceExitsZero() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let instance = try file("order.yaml", "id: 7\nquantity: 2\n")
        let result = try ParleyProcess.run(["schema", "validate", try file("order.schema.json", Self.schema), instance])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(instance): valid\n")
    }

    @Test func anInvalidXMLInstanceIsCoercedAndExitsOne() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let instance = try file("order.xml", "<order><id>7</id><quantity>250</quantity></order>")
        let result = try ParleyProcess.run(["schema", "validate", try file("order.schema.json", Self.schema), instance])
        #expect(result.status == 1)
        #expect(
            result.stdout == "\(instance): /quantity /properties/quantity/maximum: the number is above the maximum\n")
    }

    @Test func standardInputWithAContentType() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ParleyProcess.run(
            [
                "schema", "validate", try file("s.json", Self.schema), "-",
                "--content-type", "application/json",
            ], input: #"{"id": 1}"#)
        #expect(result.status == 1)
        #expect(result.stdout.contains("/required"))
    }

    @Test func aSchemaThatDoesNotCompileOrAMissingFileExitsTwo() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let instance = try file("order.yaml", "id: 7\n")
        let bad = try ParleyProcess.run(["schema", "validate", try file("bad.json", #"{"type": 5}"#), instance])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("invalidSchema"))
        let missing = try ParleyProcess.run(["schema", "validate", directory.path + "/none.json", instance])
        #expect(missing.status == 2)
        let dialect = try ParleyProcess.run([
            "schema", "validate", try file("s.json", Self.schema), instance, "--dialect", "draft7",
        ])
        #expect(dialect.status == 2)
    }

    @Test func dialectRemotesAndFormatAssertion() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try file("remote/date.json", #"{"type": "string", "format": "date"}"#)
        let schema = try file("s.json", #"{"$ref": "http://localhost:1234/date.json"}"#)
        let instance = try file("i.json", #""2024-02-30""#)
        let remote = "http://localhost:1234/=" + directory.appendingPathComponent("remote").path
        let annotated = try ParleyProcess.run(["schema", "validate", schema, instance, "--remote", remote])
        #expect(annotated.status == 0, "\(annotated.stderr)")
        let asserted = try ParleyProcess.run([
            "schema", "validate", schema, instance, "--remote", remote, "--format-assertion",
        ])
        #expect(asserted.status == 1)
        let openAPI = try file("n.json", #"{"type": "integer", "nullable": true}"#)
        let null = try file("null.json", "null")
        #expect(try ParleyProcess.run(["schema", "validate", openAPI, null, "--dialect", "openapi-3.0"]).status == 0)
        #expect(try ParleyProcess.run(["schema", "validate", openAPI, null, "--dialect", "2020-12"]).status == 1)
    }

    @Test func batchAnswersOneLinePerLine() throws {
        let input = """
            {"schema": {"type": "integer"}, "instance": 5}
            {"schema": {"maximum": 3, "exclusiveMaximum": true}, "instance": 3, "dialect": "draft4"}
            {"schema": {"type": 3}, "instance": 5}
            """
        let result = try ParleyProcess.run(["schema", "validate", "--batch"], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0] == #"{"valid": true}"#)
        #expect(lines[1].hasPrefix(#"{"valid": false, "errors": [{"instance_path": "", "schema_path": "/maximum""#))
        #expect(lines[2].hasPrefix(#"{"error": "#))
    }
}
