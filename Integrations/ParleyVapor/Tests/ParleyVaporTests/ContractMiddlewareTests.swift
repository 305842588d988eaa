import Logging
import Parley
import ParleyHTTP
import ParleyOpenAPI
import ParleyServerTesting
import ParleyVapor
import ParleyYAML
import Testing
import Vapor

/// `ContractMiddleware` on the real server: the shared contract table (requests checked against
/// the document, 400 with the violations, negotiated; responses enforced with 500 or reported
/// in the log).
@Suite struct ContractMiddlewareTests {
    /// Parley and, when `checked`, the contract middleware around `ContractTable`'s routes.
    func routes(responses: ContractMode, checked: Bool, log: CapturedLog) -> (Application) throws -> Void {
        { app in
            app.logger = Logger(label: "contract") { _ in log }
            let server = ParleyServer(registry: testRegistry)
            app.parley.use(server)
            let document = try OpenAPIDocument(YAMLFormat().decode(Array(ContractTable.document.utf8)),
                                               uri: ContractTable.documentURI, registry: server.registry)
            let middleware = ContractMiddleware(document: document, server: server, responses: responses)
            let api: any RoutesBuilder = checked ? app.grouped(middleware) : app
            api.get("books", ":id") { req in
                Negotiated(ContractTable.book(try req.parameters.require("id", as: Int.self)))
            }
            api.post("books") { req in Negotiated(try req.parley.decode(), status: .created) }
        }
    }

    @Test(arguments: ContractTable.cases)
    func passesTheSharedCase(_ testCase: ContractCase) async throws {
        let log = CapturedLog()
        let install = routes(responses: testCase.responses, checked: testCase.checked, log: log)
        try await withLiveServer(installingParley: false, routes: install) { client in
            let answer = try await LiveRunner(baseURL: client.baseURL).send(testCase.request)
            let failures = ContractTable.check(answer, logged: log.messages, against: testCase)
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        }
    }
}
