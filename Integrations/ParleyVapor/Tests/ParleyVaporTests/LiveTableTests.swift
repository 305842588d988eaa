import ParleyServerTesting
import Testing

/// The shared live table (`ParleyServerTesting`) against the real Vapor server on loopback.
@Suite struct LiveTableTests {
    @Test(arguments: LiveTable.cases)
    func passesTheSharedCase(_ testCase: LiveCase) async throws {
        try await withLiveServer(installingParley: false, routes: addContractRoutes) { client in
            let failures = await LiveRunner(baseURL: client.baseURL).run(testCase)
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        }
    }
}
