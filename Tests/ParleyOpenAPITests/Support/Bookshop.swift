import FoundationEssentials
import Parley
import ParleyJSON
import ParleyMessagePack
import ParleyOpenAPI
import ParleyYAML

/// The registry the tests decode documents and bodies with.
let testRegistry = Registry(formats: [JSONFormat(), YAMLFormat(), MessagePackFormat(), TextFormat()])

/// An OpenAPI 3.0 document exercising every check: servers, templates, ranges, default, headers,
/// readOnly/writeOnly, a response by reference, a type without schema.
let bookshopYAML = """
    openapi: 3.0.3
    info: {title: Bookshop, version: "1"}
    servers:
      - url: https://api.example.com/{version}
        variables: {version: {default: v1, enum: [v1, v2]}}
    paths:
      /books:
        get:
          operationId: listBooks
          parameters:
            - {name: limit, in: query, required: true, schema: {type: integer, maximum: 100}}
            - {name: X-Trace, in: header, schema: {type: string, pattern: "^[a-f0-9]+$"}}
          responses:
            "200":
              description: ok
              headers:
                X-Rate-Limit: {required: true, schema: {type: integer}}
              content:
                application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Book"}}}
                application/yaml: {schema: {type: array, items: {$ref: "#/components/schemas/Book"}}}
                application/msgpack: {schema: {type: array, items: {$ref: "#/components/schemas/Book"}}}
            "4XX":
              description: client error
              content: {application/json: {schema: {$ref: "#/components/schemas/Problem"}}}
        post:
          operationId: addBook
          requestBody:
            required: true
            content:
              application/json: {schema: {$ref: "#/components/schemas/Book"}}
              application/msgpack: {schema: {$ref: "#/components/schemas/Book"}}
          responses:
            "201": {description: created, content: {application/json: {schema: {$ref: "#/components/schemas/Book"}}}}
      /books/mine:
        get:
          operationId: myBooks
          responses:
            "200": {description: ok, content: {text/plain: {}, image/png: {schema: {type: string}}}}
      /books/{id}:
        parameters: [{name: id, in: path, required: true, schema: {type: integer, minimum: 1}}]
        get:
          operationId: getBook
          responses:
            "200": {$ref: "#/components/responses/OneBook"}
            default:
              description: error
              content: {"application/*": {schema: {$ref: "#/components/schemas/Problem"}}}
      /files/{name}.{ext}:
        get:
          operationId: getFile
          responses: {"204": {description: none}}
    components:
      responses:
        OneBook: {description: one book, content: {application/json: {schema: {$ref: "#/components/schemas/Book"}}}}
      schemas:
        Book:
          type: object
          required: [title, isbn]
          additionalProperties: false
          properties:
            id: {type: integer, readOnly: true}
            title: {type: string}
            isbn: {type: string, pattern: "^[0-9]{13}$"}
            genre: {type: string, enum: [fiction, poetry, null], nullable: true}
            secret: {type: string, writeOnly: true}
        Problem: {type: object, required: [title], properties: {title: {type: string}}}
    """

/// A folder of its own under the temporary directory, with `files` written into it.
func temporaryFolder(_ files: [String: String]) throws -> String {
    let folder = FileManager.default.temporaryDirectory.path + "/parley-openapi-\(UInt64.random(in: 0...UInt64.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (name, text) in files {
        let path = folder + "/" + name
        let parent = String(path[..<path.lastIndex(of: "/")!])
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
    return folder
}

/// The bookshop document, loaded from a YAML file.
func bookshop() throws -> OpenAPIDocument {
    let folder = try temporaryFolder(["openapi.yaml": bookshopYAML])
    return try OpenAPIDocument(contentsOf: folder + "/openapi.yaml", registry: testRegistry)
}

/// A JSON body's bytes.
func json(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A valid book list response.
func bookListResponse(_ body: String = #"[{"id": 1, "title": "Dune", "isbn": "9780441013593"}]"#,
                      type: String = "application/json") -> ContractResponse {
    ContractResponse(status: 200, headers: [("Content-Type", type), ("X-Rate-Limit", "10")], body: json(body))
}
