import Hummingbird
import Logging
import Parley
import ParleyHTTP
import ParleyHummingbird
import ParleyJSON
import ParleyOpenAPI
import ParleyServerTesting
import ParleyYAML
import Testing

/// `ContractMiddleware` on the real server: the shared contract table (requests checked against
/// the document, 400 with the violations, negotiated; responses enforced with 500 or reported
/// in the log).
@Suite struct ContractMiddlewareTests {
    /// `ContractTable`'s routes, behind `ContractMiddleware` when `checked`.
    func router(responses: ContractMode, checked: Bool) throws -> Router<ContractContext> {
        let document = try OpenAPIDocument(YAMLFormat().decode(Array(ContractTable.document.utf8)),
                                           uri: ContractTable.documentURI, registry: ContractContext.parley.registry)
        let router = Router(context: ContractContext.self)
        router.add(middleware: ParleyMiddleware())
        if checked { router.add(middleware: ContractMiddleware(document: document, responses: responses)) }
        router.get("/books/:id") { _, context in
            Negotiated(ContractTable.book(try context.parameters.require("id", as: Int.self)))
        }
        router.post("/books") { request, context in
            Negotiated(try await context.requestDecoder.decodeValue(from: request), status: .created)
        }
        return router
    }

    @Test(arguments: ContractTable.cases)
    func passesTheSharedCase(_ testCase: ContractCase) async throws {
        let log = CapturedLog()
        let answer = try await withLiveServer(try router(responses: testCase.responses, checked: testCase.checked),
                                              logger: Logger(label: "contract") { _ in log }) {
            try await LiveRunner(baseURL: $0).send(testCase.request)
        }
        let failures = ContractTable.check(answer, logged: log.messages, against: testCase)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
