import Foundation
import Parley
import ParleyCSV
import ParleyImage
import ParleyJSON
import ParleyMessagePack
import ParleyPropertyList
import ParleyTestKit
import ParleyXML
import ParleyYAML
import ParleyFixtures

/// The formats the fixtures tests decode with: every format module plus the core's text, form
/// and raw formats, as `parley check` links them.
let testRegistry = Registry(formats: [JSONFormat(), YAMLFormat(), XMLFormat(), PropertyListFormat(), ImageFormat(),
                                      CSVFormat(),
                                      MessagePackFormat()] + Registry.builtInFormats)

/// The repository's `Fixtures/` folder.
let fixturesFolder: URL = {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent("Fixtures")
}()

func fixture(_ relative: String) -> String { fixturesFolder.appendingPathComponent(relative).path }

func read(_ relative: String) throws -> Recording { try RecordingReader().read(path: fixture(relative)) }

/// A response exchange built in memory for classification tests.
func exchange(status: Int = 200, method: String = "GET", headers: RecordedFields, body: [UInt8]?) -> RecordedExchange {
    RecordedExchange(index: 0, request: RecordedRequest(method: method, url: "https://example.org/x"),
                     response: RecordedResponse(status: status, headers: headers, body: body))
}

func check(_ exchange: RecordedExchange, options: CheckOptions = CheckOptions(registry: testRegistry),
           kind: RecordingKind = .har) -> ExchangeResult {
    ExchangeChecker(options: options).check(exchange, path: "memory", kind: kind)
}

/// The sample user document the generator embeds in several recordings.
let sampleUser: Value = [
    "id": .integer(4213), "login": "ada", "name": "Ada Lovelace", "admin": false,
    "balance": .number("12345678901234567890123"), "ratio": .float(0.1), "tags": ["math", "engines"], "manager": .null,
]

/// A fresh temporary folder.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-fixtures-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
