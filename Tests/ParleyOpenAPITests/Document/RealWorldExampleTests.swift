import Foundation
import Parley
import ParleyJSON
import ParleyOpenAPI
import ParleyYAML
import Testing

/// The OpenAPI documents of the shared real-world corpus checked against their own examples: no
/// recording in `../shared/corpora/real-world/recorded` belongs to a document that loads (none
/// names its server's host; the ruby-openai cassettes hold OpenAI traffic, but that document is
/// refused), so exchanges are generated from the documents' `example` and
/// `examples` (media types, parameters, headers, schemas; see ``ExampleExchangeGenerator``) and
/// checked. Every generated exchange passes, except those whose example the document itself gets
/// wrong, listed with the reason in ``wrongExamples``; a document Parley refuses is listed with the
/// reason in ``refusedDocuments``.
@Suite struct RealWorldExampleTests {
    static let folder = RealWorldDocumentTests.folder
    static let registry = Registry(formats: [JSONFormat(), YAMLFormat()] + Registry.builtInFormats)

    /// Documents that do not load, and what is wrong with them.
    static let refusedDocuments: [String: String] = [
        "json/openai-openapi/openapi.json": openAIRefusal,
        "yaml/openai-openapi/openapi.yaml": openAIRefusal,
    ]
    static let openAIRefusal = "an OpenAPI 3.1 document (schemas are JSON Schema 2020-12) whose schemas use the "
        + "3.0 form `exclusiveMinimum: true`, which 2020-12 does not allow (it must be a number)"

    /// Generated exchanges that fail because the document's own example violates its schema
    /// (`METHOD /template name (status)`), with what is wrong in the document.
    static let wrongExamples: [String: String] = Dictionary(uniqueKeysWithValues: [
        ("GET " + accounts + "/Addresses/{AddressSid}/DependentPhoneNumbers.json readFull (200)", trunkSid),
        ("GET " + accounts + "/AvailablePhoneNumbers/{CountryCode}/Local.json readFull (200)", latitude),
        ("GET " + accounts + "/Calls/{CallSid}/Notifications.json readFull (200)", requestMethodNull),
        ("GET " + accounts + "/Calls/{CallSid}/Notifications/{Sid}.json fetch (200)", requestMethodNull),
        ("GET " + accounts + "/Calls/{CallSid}/Recordings.json readFull (200)", price),
        ("GET " + accounts + "/Calls/{CallSid}/Recordings/{Sid}.json fetch (200)", price),
        ("GET " + accounts + "/Conferences.json readDateCreatedEquals (200)", conferenceEndedNull),
        ("GET " + accounts + "/Conferences.json readDateCreatedOnOrAfter (200)", conferenceEndedNull),
        ("GET " + accounts + "/Conferences.json readFull (200)", conferenceEndedNull),
        ("GET " + accounts + "/Conferences.json readMyroom (200)", conferenceEndedNull),
        ("GET " + accounts + "/Conferences.json readNext (200)", conferenceEndedNull),
        ("GET " + accounts + "/Conferences.json readPrevious (200)", conferenceEndedNull),
        ("GET " + accounts + "/Conferences/{Sid}.json fetchValidRegionInProgress (200)", conferenceEndedNull),
        ("GET " + accounts + "/IncomingPhoneNumbers.json readFull (200)", emptyApplicationSid),
        ("GET " + accounts + "/IncomingPhoneNumbers/Local.json readFull (200)", emptyApplicationSid),
        ("GET " + accounts + "/IncomingPhoneNumbers/Mobile.json readFull (200)", emptyApplicationSid),
        ("GET " + accounts + "/IncomingPhoneNumbers/TollFree.json readFull (200)", emptyApplicationSid),
        ("GET " + accounts + "/IncomingPhoneNumbers/{Sid}.json fetch (200)", emptyApplicationSid),
        ("GET " + accounts + "/Notifications.json readFull (200)", requestMethodNull),
        ("GET " + accounts + "/Recordings/{RecordingSid}/Transcriptions.json readFull (200)", price),
        ("GET " + accounts + "/Recordings/{RecordingSid}/Transcriptions/{Sid}.json fetch (200)", price),
        ("GET " + accounts + "/Transcriptions.json readFull (200)", price),
        ("GET " + accounts + "/Transcriptions/{Sid}.json fetch (200)", price),
        ("GET " + accounts + "/Usage/Records.json readFull (200)", price),
        ("GET " + accounts + "/Usage/Records/AllTime.json readFull (200)", price),
        ("GET " + accounts + "/Usage/Records/Daily.json readFull (200)", price),
        ("GET " + accounts + "/Usage/Records/LastMonth.json readFull (200)", price),
        ("GET " + accounts + "/Usage/Records/Monthly.json readFull (200)", price),
        ("GET " + accounts + "/Usage/Records/ThisMonth.json readFull (200)", price),
        ("GET " + accounts + "/Usage/Records/Today.json readFull (200)", price),
        ("GET " + accounts + "/Usage/Records/Yearly.json readFull (200)", price),
        ("GET " + accounts + "/Usage/Records/Yesterday.json readFull (200)", price),
        ("POST " + accounts + "/Calls.json createWithTwiml (201)", emptyMethod),
        ("POST " + accounts + "/Calls/{CallSid}/Siprec.json createWithArgs (200)", putCallbackMethod),
        ("POST " + accounts + "/Calls/{CallSid}/Streams.json createWithArgs (200)", putCallbackMethod),
        ("POST " + accounts + "/Calls/{CallSid}/Transcriptions.json createWithArgs (200)", putCallbackMethod),
        ("POST " + accounts + "/Conferences/{Sid}.json announceToConference (200)", conferenceEndedNull),
        ("POST " + accounts + "/IncomingPhoneNumbers/{Sid}.json update (200)", emptyApplicationSid),
        ("POST /2010-04-01/Accounts/{Sid}.json updateWithNumericStatus (200)", numericStatus),
    ])
    static let accounts = "/2010-04-01/Accounts/{AccountSid}"
    static let price = "the example writes `price` as a string; the schema types it number (nullable)"
    static let latitude = "the example writes `latitude` and `longitude` as strings; the schema types them number "
        + "(nullable)"
    static let requestMethodNull = "the example's `request_method` is null; the schema is nullable, but its enum "
        + "(GET, POST) does not list null, and OpenAPI 3.0.3 (clarifying 3.0.x) keeps such an enum refusing null"
    static let conferenceEndedNull = "the example's `reason_conference_ended` is null; its schema "
        + "(conference_enum_reason_conference_ended, a string enum) is not nullable"
    static let emptyApplicationSid = "the example's `sms_application_sid` and `voice_application_sid` are empty "
        + "strings; the schema asks for 34 characters matching ^AP[0-9a-fA-F]{32}$ (or null)"
    static let trunkSid = "the example's `trunk_sid` is an AP… SID; the schema's pattern is ^TK[0-9a-fA-F]{32}$"
    static let emptyMethod = "the request example sends an empty `Method`; the schema's enum allows GET and POST"
    static let putCallbackMethod = "the request example sends `StatusCallbackMethod=PUT`; the schema's enum allows "
        + "GET and POST"
    static let numericStatus = "the request example (updateWithNumericStatus) sends `Status=1`; the schema's enum "
        + "is active, suspended, closed"

    /// The OpenAPI documents of the corpus: its JSON and YAML files with an `openapi` member.
    static func documents() throws -> [(file: String, tree: Value)] {
        var found: [(file: String, tree: Value)] = []
        for (kind, format) in [("json", JSONFormat() as any Format), ("yaml", YAMLFormat() as any Format)] {
            let base = "\(folder)/\(kind)"
            for origin in try FileManager.default.contentsOfDirectory(atPath: base).sorted() {
                let files = try FileManager.default.contentsOfDirectory(atPath: "\(base)/\(origin)").sorted()
                for file in files where file.hasSuffix(".\(kind)") {
                    let data = try Data(contentsOf: URL(fileURLWithPath: "\(base)/\(origin)/\(file)"))
                    let tree = try format.decode(Array(data))
                    if tree["openapi"] != nil { found.append(("\(kind)/\(origin)/\(file)", tree)) }
                }
            }
        }
        return found
    }

    /// The files under `recorded/` that name one of `hosts`.
    static func recordings(naming hosts: [String]) throws -> [String] {
        let base = "\(folder)/../recorded"
        guard !hosts.isEmpty, let files = FileManager.default.enumerator(atPath: base) else { return [] }
        var found: [String] = []
        for case let file as String in files {
            guard let data = FileManager.default.contents(atPath: "\(base)/\(file)") else { continue }
            let text = String(decoding: data, as: UTF8.self)
            if hosts.contains(where: { text.contains($0) }) { found.append(file) }
        }
        return found
    }

    @Test func everyDocumentsExamplesConformToIt() throws {
        guard RealWorldDocumentTests.corpusIsPresent else { return }
        let documents = try Self.documents()
        #expect(documents.count == 4)
        var loaded = 0
        for (file, tree) in documents {
            let document: OpenAPIDocument
            do {
                document = try OpenAPIDocument(contentsOf: "\(Self.folder)/\(file)", registry: Self.registry)
            } catch {
                #expect(Self.refusedDocuments[file] != nil, "\(file) does not load: \(error)")
                print("RealWorldExampleTests: \(file) refused (\(Self.refusedDocuments[file] ?? "not expected")): "
                      + "\(error)")
                continue
            }
            loaded += 1
            #expect(Self.refusedDocuments[file] == nil, "\(file) is listed as refused but loads")
            let hosts = (tree["servers"]?.arrayValue ?? []).compactMap { $0["url"]?.stringValue }
                .compactMap { URL(string: $0)?.host }
            let recordings = try Self.recordings(naming: hosts)
            #expect(recordings.isEmpty, "recordings of \(hosts) are in the corpus now: check them here: \(recordings)")
            let yield = ExampleExchangeGenerator(root: tree).exchanges()
            #expect(yield.operations == document.operations.count)
            #expect(!yield.exchanges.isEmpty, "\(file) yields no exchange")
            let checker = ContractChecker(document: document, registry: Self.registry)
            var passed = 0
            var warned = 0
            var failures: [String: [ContractFinding]] = [:]
            for exchange in yield.exchanges {
                let findings = exchange.response.map { checker.check(request: exchange.request, response: $0) }
                    ?? checker.checkRequest(exchange.request).findings
                let violations = findings.filter(\.isViolation)
                if violations.isEmpty {
                    passed += 1
                    if !findings.isEmpty { warned += 1 }
                } else {
                    failures[exchange.label] = violations
                }
            }
            var wrongByReason: [String: Int] = [:]
            for (label, violations) in failures.sorted(by: { $0.key < $1.key }) {
                let listed = Self.wrongExamples[label]
                #expect(listed != nil, "\(file): \(label) fails: \(violations.map(\.description))")
                if let listed { wrongByReason[listed, default: 0] += 1 }
            }
            for label in Self.wrongExamples.keys.sorted() where failures[label] == nil {
                Issue.record("\(file): \(label) is listed as a wrong example but passes (or is no longer generated)")
            }
            let requestOnly = yield.exchanges.count { $0.response == nil }
            print("""
                RealWorldExampleTests: \(file): no recording names \(hosts.joined(separator: ", ")); \
                \(yield.operations) operations, \(yield.operationsWithExamples) \
                with examples; \(yield.exchanges.count) exchanges generated (\(requestOnly) of them a request \
                alone), \(yield.notGenerated.count) not generated; \(passed) pass (\(warned) with warnings), \
                \(failures.count) fail (\(failures.count) with a wrong example in the document)
                """)
            for (reason, count) in wrongByReason.sorted(by: { $0.key < $1.key }) {
                print("RealWorldExampleTests:   \(count) fail as the document's example is wrong: \(reason)")
            }
            for reason in yield.notGenerated.prefix(10) { print("RealWorldExampleTests:   not generated: \(reason)") }
            // The check can fail: a passing exchange whose response body is swapped for `42` does not pass.
            if let sample = yield.exchanges.first(where: { $0.response != nil && failures[$0.label] == nil }),
               var response = sample.response {
                response.body = Array("42".utf8)
                #expect(checker.check(request: sample.request, response: response).contains { $0.kind == .body },
                        "\(sample.label) with the body 42")
            }
        }
        #expect(loaded == documents.count - Self.refusedDocuments.count)
    }
}
