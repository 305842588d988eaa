import FoundationEssentials
import Foundation
import Parley
import ParleyJSON
import ParleyOpenAPI
import Testing

/// Parley and openapi-core (PyPI, the version the Makefile's `test` target installs) judge the
/// same generated corpus of JSON exchanges, valid and mutated one way each; their verdicts on
/// the request and on the response must agree on every exchange.
@Suite struct OpenAPICoreAgreementTests {
    static let spec = """
        {"openapi": "3.0.3", "info": {"title": "Shop", "version": "1"},
         "servers": [{"url": "https://api.example.com/v1"}],
         "paths": {
          "/items": {
           "get": {"operationId": "listItems",
            "parameters": [{"name": "limit", "in": "query", "required": true,
                            "schema": {"type": "integer", "maximum": 50}}],
            "responses": {"200": {"description": "ok",
              "headers": {"X-Total": {"required": true, "schema": {"type": "integer"}}},
              "content": {"application/json": {"schema": {"type": "array",
                "items": {"$ref": "#/components/schemas/Item"}}}}}}},
           "post": {"operationId": "addItem",
            "requestBody": {"required": true,
              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
            "responses": {"201": {"description": "created",
              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}}}}},
          "/items/{id}": {
           "get": {"operationId": "getItem",
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
            "responses": {"200": {"description": "ok",
              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
              "404": {"description": "missing", "content": {"application/json": {"schema": {"type": "object",
                "required": ["message"], "properties": {"message": {"type": "string"}}}}}}}}}},
         "components": {"schemas": {"Item": {"type": "object", "required": ["name", "sku"],
           "additionalProperties": false,
           "properties": {"id": {"type": "integer", "readOnly": true}, "name": {"type": "string"},
             "sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
             "colour": {"type": "string", "enum": ["red", "green", "blue"]},
             "price": {"type": "number", "minimum": 0}}}}}}
        """

    /// One exchange of the corpus and what was done to it.
    struct Case {
        var mutation: String
        var method: String
        var url: String
        var requestHeaders: [String: String] = [:]
        var requestBody: String?
        var status: Int
        var responseHeaders: [String: String]
        var responseBody: String

        var line: String {
            func q(_ s: String) -> String { String(decoding: try! JSONFormat().encode(.string(s)), as: UTF8.self) }
            func object(_ d: [String: String]) -> String {
                "{" + d.sorted { $0.key < $1.key }.map { "\(q($0.key)): \(q($0.value))" }.joined(separator: ", ") + "}"
            }
            return "{\"method\": \(q(method)), \"url\": \(q(url)), \"request_headers\": \(object(requestHeaders)), "
                + "\"request_body\": \(requestBody.map(q) ?? "null"), \"status\": \(status), "
                + "\"response_headers\": \(object(responseHeaders)), \"response_body\": \(q(responseBody))}"
        }
    }

    /// Valid exchanges from `seeds` items, and each mutated once per kind of fault.
    static func corpus(seeds: Int) -> [Case] {
        var cases: [Case] = []
        let colours = ["red", "green", "blue"]
        for n in 0..<seeds {
            let sku = "ABC-\(String(1000 + n * 37 % 9000))"
            let item = #"{"id": \#(n), "name": "item \#(n)", "sku": "\#(sku)", "#
                + #""colour": "\#(colours[n % 3])", "price": \#(n).5}"#
            let newItem = #"{"name": "item \#(n)", "sku": "\#(sku)"}"#
            let json = ["Content-Type": "application/json"]
            let list = Case(mutation: "valid list", method: "GET",
                            url: "https://api.example.com/v1/items?limit=\(n % 50)", status: 200,
                            responseHeaders: json.merging(["X-Total": "\(n)"]) { $1 }, responseBody: "[\(item)]")
            let one = Case(mutation: "valid get", method: "GET", url: "https://api.example.com/v1/items/\(n)",
                           status: 200, responseHeaders: json, responseBody: item)
            let post = Case(mutation: "valid post", method: "POST", url: "https://api.example.com/v1/items",
                            requestHeaders: json, requestBody: newItem, status: 201, responseHeaders: json,
                            responseBody: item)
            let missing = Case(mutation: "valid 404", method: "GET", url: "https://api.example.com/v1/items/\(n)",
                               status: 404, responseHeaders: json, responseBody: #"{"message": "no item \#(n)"}"#)
            cases += [list, one, post, missing]
            func mutated(_ base: Case, _ name: String, _ change: (inout Case) -> Void) -> Case {
                var copy = base
                copy.mutation = name
                change(&copy)
                return copy
            }
            cases += [
                mutated(one, "wrong type") {
                    $0.responseBody = $0.responseBody.replacing(#""name": "item"#, with: #""name": 7, "x": "item"#)
                },
                mutated(one, "wrong type (price)") {
                    $0.responseBody = #"{"name": "a", "sku": "\#(sku)", "price": "cheap"}"#
                },
                mutated(one, "missing required") { $0.responseBody = #"{"name": "item \#(n)"}"# },
                mutated(one, "extra property") {
                    $0.responseBody = #"{"name": "a", "sku": "\#(sku)", "weight": \#(n)}"#
                },
                mutated(one, "enum") { $0.responseBody = #"{"name": "a", "sku": "\#(sku)", "colour": "mauve"}"# },
                mutated(one, "pattern") { $0.responseBody = #"{"name": "a", "sku": "abc-\#(n)"}"# },
                mutated(one, "minimum") { $0.responseBody = #"{"name": "a", "sku": "\#(sku)", "price": -\#(n + 1)}"# },
                mutated(one, "undeclared status") { $0.status = 500 + n % 4 },
                mutated(one, "undeclared type") {
                    $0.responseHeaders = ["Content-Type": "text/html"]; $0.responseBody = "<p>\(n)</p>"
                },
                mutated(list, "missing required header") { $0.responseHeaders = json },
                mutated(list, "mistyped header") { $0.responseHeaders["X-Total"] = "many" },
                mutated(list, "missing required query") { $0.url = "https://api.example.com/v1/items" },
                mutated(list, "mistyped query") { $0.url = "https://api.example.com/v1/items?limit=ten" },
                mutated(list, "query above maximum") { $0.url = "https://api.example.com/v1/items?limit=\(51 + n)" },
                mutated(one, "mistyped path parameter") { $0.url = "https://api.example.com/v1/items/item-\(n)" },
                mutated(post, "readOnly in request") {
                    $0.requestBody = #"{"id": \#(n), "name": "a", "sku": "\#(sku)"}"#
                },
                mutated(post, "request missing required") { $0.requestBody = #"{"name": "a"}"# },
                mutated(post, "request extra property") {
                    $0.requestBody = #"{"name": "a", "sku": "\#(sku)", "z": 1}"#
                },
                mutated(post, "request wrong type") { $0.requestBody = #"{"name": ["a"], "sku": "\#(sku)"}"# },
                mutated(post, "request undeclared type") {
                    $0.requestHeaders = ["Content-Type": "text/plain"]; $0.requestBody = "item \(n)"
                },
            ]
        }
        return cases
    }

    static let requestKinds: Set<ContractFinding.Kind> = [.request, .noOperation]
    static let responseKinds: Set<ContractFinding.Kind> = [.status, .contentType, .body, .header, .noOperation]

    @Test func verdictsAgreeWithOpenAPICore() throws {
        let folder = try temporaryFolder(["shop.json": Self.spec])
        let registry = Registry(formats: [JSONFormat(), TextFormat()])
        let document = try OpenAPIDocument(contentsOf: folder + "/shop.json", registry: registry)
        let checker = ContractChecker(document: document, registry: registry)
        let cases = Self.corpus(seeds: 25)
        let corpus = folder + "/exchanges.jsonl"
        try Data((cases.map(\.line).joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: corpus))
        let oracle = String(#filePath.dropLast("OpenAPICoreAgreementTests.swift".count)) + "openapi_core_oracle.py"
        let lines = try Self.runPython([oracle, folder + "/shop.json", corpus])
        try #require(lines.count == cases.count, "openapi-core answered \(lines.count) of \(cases.count) exchanges")
        var agreed = 0, invalid = 0
        for (exchange, line) in zip(cases, lines) {
            let verdict = try JSONFormat().decode(Array(line.utf8))
            let findings = checker.check(
                request: ContractRequest(method: exchange.method, target: exchange.url,
                                         headers: exchange.requestHeaders.map { ($0.key, $0.value) },
                                         body: exchange.requestBody.map { Array($0.utf8) } ?? []),
                response: ContractResponse(status: exchange.status,
                                           headers: exchange.responseHeaders.map { ($0.key, $0.value) },
                                           body: Array(exchange.responseBody.utf8)))
            let requestValid = !findings.contains { Self.requestKinds.contains($0.kind) }
            let responseValid = !findings.contains { Self.responseKinds.contains($0.kind) }
            #expect(!findings.contains { $0.kind == .unchecked }, "\(exchange.mutation): \(findings)")
            let same = verdict["request"] == .bool(requestValid) && verdict["response"] == .bool(responseValid)
            let verdicts = "parley request \(requestValid) response \(responseValid) \(findings); openapi-core \(line)"
            #expect(same, "\(exchange.mutation) \(exchange.method) \(exchange.url): \(verdicts)")
            if same { agreed += 1 }
            if !requestValid || !responseValid { invalid += 1 }
        }
        print("openapi-core agreement: \(agreed) of \(cases.count) exchanges "
              + "(\(cases.count - invalid) valid, \(invalid) invalid)")
        #expect(invalid > cases.count / 2)
    }

    /// Runs python3 with `arguments`; its output lines.
    static func runPython(_ arguments: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Standard error is read on a thread of its own so neither pipe can fill and stall python.
        nonisolated(unsafe) var errors = Data()
        let reader = Thread { errors = stderr.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while reader.isExecuting || !reader.isFinished { usleep(1000) }
        guard process.terminationStatus == 0 else {
            throw OracleError(message: "python3 (openapi-core) failed: " + String(decoding: errors, as: UTF8.self))
        }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    struct OracleError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
