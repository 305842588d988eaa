import Foundation
import ParleyOpenAPI
import Testing

/// The OpenAPI documents of the shared real-world corpus: the Twilio description (3.0.1) loads in
/// JSON and YAML to the same operations, each found again by its own template; the OpenAI one
/// (3.1.0) is refused by ParleySchema when its first Schema Object that reaches a schema using the
/// 3.0 form `exclusiveMinimum: true` (which 3.1, JSON Schema 2020-12, does not allow) compiles: the
/// error names that keyword's place under `#/components/schemas`.
@Suite struct RealWorldDocumentTests {
    static let folder = String(#filePath.prefix(upTo: #filePath.range(of: "/Tests/")!.lowerBound))
        + "/../shared/corpora/real-world/documents"

    static var corpusIsPresent: Bool {
        guard FileManager.default.fileExists(atPath: folder) else {
            print("RealWorldDocumentTests: skipped, \(folder) is absent (../shared is not beside the checkout)")
            return false
        }
        return true
    }

    @Test func theTwilioDescriptionLoadsInJSONAndYAML() throws {
        guard Self.corpusIsPresent else { return }
        let name = "twilio-oai/twilio_api_v2010"
        let fromJSON = try OpenAPIDocument(contentsOf: "\(Self.folder)/json/\(name).json", registry: testRegistry)
        let fromYAML = try OpenAPIDocument(contentsOf: "\(Self.folder)/yaml/\(name).yaml", registry: testRegistry)
        #expect(fromJSON.version == "3.0.1")
        #expect(fromJSON.operations.count > 150)
        #expect(fromJSON.operations.map(\.name) == fromYAML.operations.map(\.name))
        for operation in fromJSON.operations {
            let path = operation.pathTemplate.replacing(/\{[^}]*\}/, with: "p1")
            let match = fromJSON.operation(method: operation.method, path: path)
            #expect(match?.operation != nil, "\(operation.method) \(path)")
        }
        print("RealWorldDocumentTests: \(name) loaded, \(fromJSON.operations.count) operations (JSON and YAML)")
    }

    @Test(arguments: ["json/openai-openapi/openapi.json", "yaml/openai-openapi/openapi.yaml"])
    func theOpenAIDescriptionIsRefusedAtItsFirstInvalidSchema(file: String) throws {
        guard Self.corpusIsPresent else { return }
        #expect {
            try OpenAPIDocument(contentsOf: "\(Self.folder)/\(file)", registry: testRegistry)
        } throws: { error in
            guard let error = error as? OpenAPILoadError else { return false }
            print("RealWorldDocumentTests: \(file) refused: \(error)")
            return error.code == .invalidSchema && error.file.hasSuffix(file)
                && error.pointer == "/components/schemas/CreateFineTuningJobRequest/properties/hyperparameters"
                    + "/properties/learning_rate_multiplier/oneOf/1/exclusiveMinimum"
                && error.message.contains("exclusiveMinimum") && error.message.contains("compiling the Schema Object")
        }
    }
}
