public import AsyncHTTPClient
public import HTTPTypes
public import NIOCore
import NIOHTTP1
import Parley
import ParleyHTTP
import ParleyCSV
import ParleyJSON
import ParleyMessagePack
import ParleyPropertyList
import ParleyXML
import ParleyYAML

/// Runs ``LiveCase``s against a server at a base URL with AsyncHTTPClient, and says what failed.
///
/// Every request has a timeout and every answer body a size bound, so a misbehaving server fails
/// the case instead of hanging the run.
public struct LiveRunner: Sendable {
    /// The server's base URL, without a trailing slash (`http://127.0.0.1:8080`).
    public var baseURL: String
    /// The client; ``HTTPClient/shared`` by default.
    public var client: HTTPClient
    /// How long one request may take. Default 20 s.
    public var timeout: TimeAmount
    /// The largest answer body read. Default 8 MiB.
    public var maxResponseBytes: Int

    /// Creates a runner.
    public init(baseURL: String, client: HTTPClient = .shared, timeout: TimeAmount = .seconds(20),
                maxResponseBytes: Int = 8 << 20) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.client = client
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }

    /// An answer as the runner saw it.
    public struct Answer: Sendable {
        /// The status code.
        public var status: Int
        /// The header fields.
        public var headerFields: HTTPFields
        /// The body.
        public var body: [UInt8]
    }

    /// Runs one case (its ``LiveCase/load`` of copies at once when set) and returns what failed,
    /// one sentence per problem; empty when the case passed.
    public func run(_ testCase: LiveCase) async -> [String] {
        guard let load = testCase.load else { return await runOnce(testCase) }
        return await withTaskGroup(of: [String].self) { group in
            for task in 0..<load.tasks {
                group.addTask {
                    var failures: [String] = []
                    for request in 0..<load.requestsPerTask {
                        failures += await runOnce(testCase).map { "task \(task) request \(request): \($0)" }
                    }
                    return failures
                }
            }
            var failures: [String] = []
            for await some in group { failures += some }
            return failures
        }
    }

    /// Sends the case's request once and returns the answer.
    ///
    /// - Throws: The client's error (connection refused, timeout, a body over ``maxResponseBytes``).
    public func send(_ testCase: LiveCase) async throws -> Answer {
        var request = HTTPClientRequest(url: baseURL + testCase.path)
        request.method = HTTPMethod(rawValue: testCase.method.rawValue)
        for field in testCase.headerFields { request.headers.add(name: field.name.rawName, value: field.value) }
        if let body = testCase.body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, timeout: timeout)
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        let buffer = try await response.body.collect(upTo: maxResponseBytes)
        return Answer(status: Int(response.status.code), headerFields: fields, body: Array(buffer.readableBytesView))
    }

    private func runOnce(_ testCase: LiveCase) async -> [String] {
        let answer: Answer
        do { answer = try await send(testCase) } catch {
            return ["\(testCase.name): request failed: \(error)"]
        }
        return Self.check(answer, against: testCase).map { "\(testCase.name): \($0)" }
    }

    /// The ways `answer` differs from what `testCase` expects.
    public static func check(_ answer: Answer, against testCase: LiveCase) -> [String] {
        var failures: [String] = []
        let received = answer.headerFields[.contentType]
        let excerpt = ParleyError.excerpt(of: answer.body, maxCharacters: 300)
        if answer.status != testCase.status {
            failures.append("status \(answer.status), expected \(testCase.status); "
                            + "Content-Type \(received ?? "none"); body \"\(excerpt)\"")
        }
        if let expected = testCase.contentType {
            let essence = received.flatMap(MediaType.init)?.essence
            if essence != expected { failures.append("Content-Type \(received ?? "none"), expected \(expected)") }
        }
        if testCase.varyAccept {
            let vary = answer.headerFields[values: .vary].flatMap { $0.split(separator: ",") }
                .map { $0.filter { $0 != " " && $0 != "\t" }.lowercased() }
            if !vary.contains("accept") && !vary.contains("*") {
                failures.append("Vary does not name Accept (Vary: \(vary))")
            }
        }
        for (name, text) in testCase.requiredFields {
            let values = answer.headerFields[values: name]
            if values.isEmpty
                || !values.contains(where: { text.isEmpty || $0.lowercased().contains(text.lowercased()) }) {
                failures.append("field \(name) missing or without '\(text)' (\(values))")
            }
        }
        if let problem = checkBody(answer, testCase.expectedBody) { failures.append(problem) }
        return failures
    }

    /// The formats the runner reads answers with.
    static let registry = Registry(formats: [JSONFormat(), YAMLFormat(), XMLFormat(), PropertyListFormat(),
                                             MessagePackFormat(), CSVFormat()])

    private static func checkBody(_ answer: Answer, _ expectation: LiveCase.BodyExpectation) -> String? {
        let body = answer.body
        let excerpt = ParleyError.excerpt(of: body, maxCharacters: 300)
        switch expectation {
        case .unchecked:
            return nil
        case .empty:
            return body.isEmpty ? nil : "body of \(body.count) bytes, expected none"
        case .text(let text):
            return body == Array(text.utf8) ? nil
                : "body \"\(excerpt)\", expected \"\(ParleyError.excerpt(of: Array(text.utf8)))\""
        case .prefix(let prefix):
            return body.starts(with: prefix) ? nil : "body \"\(excerpt)\" does not start with \(prefix)"
        case .items:
            guard let items = try? ValueEncoder().encode(RouteContract.items) else { return "cannot encode the items" }
            return sameValue(answer, items)
        case .receipt(let receipt):
            guard let value = try? ValueEncoder().encode(receipt) else { return "cannot encode the receipt" }
            return sameValue(answer, value)
        case .value(let value):
            return sameValue(answer, value)
        case .problem(let status, let mentions):
            guard let contentType = answer.headerFields[.contentType].flatMap(MediaType.init),
                  let value = try? registry.decode(body, contentType: contentType) else {
                return "problem body does not decode by its Content-Type: \"\(excerpt)\""
            }
            guard let problem = ParleyError.problem(in: value, contentType: contentType)
                    ?? ProblemDetails(value: value) else {
                return "body is no problem document: \"\(excerpt)\""
            }
            if problem.status != status {
                return "problem status \(problem.status.map(String.init) ?? "none"), expected \(status)"
            }
            let text = String(decoding: body, as: UTF8.self)
            let missing = mentions.filter { !text.contains($0) }
            return missing.isEmpty ? nil : "problem does not mention \(missing): \"\(excerpt)\""
        }
    }

    /// Whether the body means `expected` in the answer's format: the body and `expected` encoded
    /// by the same format decode to the same value (XML and CSV carry no types, so comparing
    /// their decoded forms is what "the same" can mean).
    private static func sameValue(_ answer: Answer, _ expected: Value) -> String? {
        guard var contentType = answer.headerFields[.contentType].flatMap(MediaType.init),
              let match = registry.decoder(for: contentType) else {
            return "no decoder for the answer's Content-Type \(answer.headerFields[.contentType] ?? "none")"
        }
        if match.format is CSVFormat { contentType = contentType.settingParameter("header", to: "present") }
        do {
            let received = try match.decode(answer.body, contentType: contentType)
            let reference = try match.decode(match.format.encode(expected, as: contentType), contentType: contentType)
            return received == reference ? nil
                : "body means \(received), expected \(reference) "
                    + "(\"\(ParleyError.excerpt(of: answer.body, maxCharacters: 300))\")"
        } catch {
            return "body does not decode as \(contentType): \(error) "
                + "(\"\(ParleyError.excerpt(of: answer.body, maxCharacters: 300))\")"
        }
    }
}
