import Hummingbird
import ParleyServerTesting
import Testing

/// The shared live table against the real Hummingbird server on loopback.
@Suite struct LiveTableTests {
    @Test(arguments: LiveTable.cases)
    func passesTheSharedCase(_ testCase: LiveCase) async throws {
        let failures = try await withLiveServer(contractRouter()) { baseURL in
            await LiveRunner(baseURL: baseURL).run(testCase)
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
