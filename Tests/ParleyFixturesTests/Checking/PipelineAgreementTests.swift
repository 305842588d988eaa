import Foundation
import HTTPTypes
import Parley
import ParleyHTTP
import ParleyClient
import ParleyTestKit
import Testing
import ParleyFixtures

/// `parley check` and the app's own client must agree: every exchange of every recording set is
/// run through the fixture checker and through `Client` with `ReplayTransport`, with the same
/// registry, and both must reach the same outcome and the same decoded value.
@Suite("The checker and the client agree")
struct PipelineAgreementTests {
    /// What happened to one exchange, the same words for both sides.
    enum Outcome: Equatable, CustomStringConvertible {
        case decoded(Value)
        case failed
        case notRecorded

        var description: String {
            switch self {
            case .decoded(let value): "decoded \(String(describing: value).prefix(80))"
            case .failed: "failed"
            case .notRecorded: "body not recorded"
            }
        }
    }

    @Test("Fixtures/: every exchange, both ways")
    func fixtures() async throws {
        let compared = try await compareAll(in: [fixturesFolder.path])
        #expect(compared > 30)
    }

    @Test("../shared/corpora/recorded and real-world/recorded: every exchange, both ways")
    func corpora() async throws {
        let folders = ["recorded", "real-world/recorded"].compactMap { Corpora.directory($0)?.path }
        guard folders.count == 2 else {
            print(Corpora.missingMessage("recorded"))
            return
        }
        let compared = try await compareAll(in: folders)
        #expect(compared > 1_000)
    }

    /// Compares every exchange of every readable recording under `folders`; returns how many.
    private func compareAll(in folders: [String]) async throws -> Int {
        var compared = 0
        var disagreements: [String] = []
        for file in try FixtureFiles.discover(folders) {
            guard let recording = try? RecordingReader().read(path: file.path) else { continue }
            for exchange in recording.exchanges {
                let checked = checkerOutcome(exchange, kind: recording.kind)
                let replayed = await clientOutcome(exchange, kind: recording.kind)
                if checked != replayed {
                    disagreements.append("\(file.path)#\(exchange.index): checker \(checked), client \(replayed)")
                }
                compared += 1
            }
        }
        #expect(disagreements.isEmpty,
                "\(disagreements.count) of \(compared) disagree:\n\(disagreements.prefix(20).joined(separator: "\n"))")
        return compared
    }

    /// The checker's verdict on what the pipeline found (the reader's notes about the file itself,
    /// such as a bad base64 field, are not the client's to see).
    private func checkerOutcome(_ exchange: RecordedExchange, kind: RecordingKind) -> Outcome {
        let checker = ExchangeChecker(options: CheckOptions(registry: testRegistry))
        let result = checker.check(exchange, path: "", kind: kind)
        if exchange.isMissingItsBody { return .notRecorded }
        let pipelineFindings = result.findings.dropFirst(exchange.response.readingNotes.count)
        if pipelineFindings.contains(where: { $0.severity == .error }) { return .failed }
        return result.value.map(Outcome.decoded) ?? .failed
    }

    /// The client's verdict: the exchange replayed alone at a URL every recording kind can hold
    /// (raw captures have none), decoded by `Client` with any status accepted, as the checker does.
    private func clientOutcome(_ exchange: RecordedExchange, kind: RecordingKind) async -> Outcome {
        var alone = exchange
        alone.request.url = "https://replay.test/exchange"
        let replayer = Replayer(recordings: [Recording(path: "", kind: kind, exchanges: [alone], byteCount: 0)])
        let client = Client(transport: ReplayTransport(replayer: replayer), registry: testRegistry)
        let validator = ResponseValidator(acceptableStatusCodes: ResponseValidator.allStatusCodes)
        let serializer = ValueResponseSerializer(registry: testRegistry, validator: validator)
        guard let method = HTTPRequest.Method(exchange.request.method) else { return .failed }
        do {
            let response = try await client.send(method, alone.request.url, responseSerializer: serializer)
            return .decoded(response.value)
        } catch {
            return error.underlying.contains { $0 is ReplayError } ? .notRecorded : .failed
        }
    }
}
