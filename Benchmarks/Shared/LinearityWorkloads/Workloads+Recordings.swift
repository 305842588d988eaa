import Foundation
import Parley
import ParleyFixtures
import ParleyJSON

// The recording readers (HAR, cassettes in YAML and JSON, raw HTTP files) and snapshot
// comparison, which runs through FixtureChecker on files written to a temporary folder.

let recordingWorkloads: [Workload] = [
    Workload("har.entries", unit: "entries", count: 200) { n in
        let entries = joined(n, separator: ",") { index in
            """
            {"startedDateTime":"2026-11-20T10:00:00.000Z","time":1,"request":\
            {"method":"GET","url":"https://api.example.org/items/\(index)",\
            "httpVersion":"HTTP/1.1","headers":[{"name":"Accept","value":"application/json"}],\
            "queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},\
            "response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1",\
            "headers":[{"name":"Content-Type","value":"application/json"}],\
            "cookies":[],"content":{"size":10,"mimeType":"application/json","text":"{\\"id\\":\(index)}"},\
            "redirectURL":"","headersSize":-1,"bodySize":10},\
            "cache":{},"timings":{"send":0,"wait":1,"receive":0}}
            """
        }
        let log = """
            {"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"entries":[\(entries)]}}
            """
        let bytes = Array(log.utf8)
        return { keep(try RecordingReader().read(bytes: bytes, path: "linearity.har")) }
    },
    Workload("cassette.vcr-yaml-interactions", unit: "interactions", count: 200) { n in
        let interactions = joined(n) { index in
            """
            - request:
                method: get
                uri: https://api.example.org/items/\(index)
                body: {encoding: UTF-8, string: ''}
                headers: {Accept: [application/json]}
              response:
                status: {code: 200, message: OK}
                headers: {Content-Type: [application/json]}
                body: {encoding: UTF-8, string: '{"id":\(index)}'}
              recorded_at: Fri, 20 Nov 2026 10:00:00 GMT

            """
        }
        let bytes = Array("---\nhttp_interactions:\n\(interactions)recorded_with: VCR 6.2.0\n".utf8)
        return { keep(try RecordingReader().read(bytes: bytes, path: "linearity.yml")) }
    },
    Workload("cassette.vcr-json-interactions", unit: "interactions", count: 200) { n in
        let interactions = joined(n, separator: ",") { index in
            """
            {"request":{"method":"get","uri":"https://api.example.org/items/\(index)",\
            "body":{"encoding":"UTF-8","string":""},\
            "headers":{"Accept":["application/json"]}},"response":{"status":{"code":200,"message":"OK"},\
            "headers":{"Content-Type":["application/json"]},\
            "body":{"encoding":"UTF-8","string":"{\\"id\\":\(index)}"}},\
            "recorded_at":"Fri, 20 Nov 2026 10:00:00 GMT"}
            """
        }
        let bytes = Array("{\"http_interactions\":[\(interactions)],\"recorded_with\":\"VCR 6.2.0\"}".utf8)
        return { keep(try RecordingReader().read(bytes: bytes, path: "linearity.json")) }
    },
    Workload("rawhttp.messages", unit: "messages", count: 500) { n in
        let bytes = Array(joined(n) { index in
            let body = "{\"id\":\(index)}"
            return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)\r\n"
        }.utf8)
        return { keep(try RecordingReader().read(bytes: bytes, path: "linearity.http")) }
    },
    Workload("rawhttp.loose-status-lines", unit: "messages", count: 100) { n in
        // `HTTP/1x 200`: starts a message, but is not strict enough to end the previous body.
        let bytes = Array(joined(n) { _ in "HTTP/1x 200 OK\r\nContent-Length: 2\r\n\r\nok\r\n" }.utf8)
        return { keep(try RecordingReader().read(bytes: bytes, path: "linearity.http")) }
    },
    Workload("snapshot.compare-object-keys", unit: "keys", count: 500) { n in
        let body = "{" + joined(n, separator: ",") { "\"key\($0)\":\"value \($0)\"" } + "}"
        let checker = snapshotChecker(body: body, name: "object-\(n)")
        return { keep(checker()) }
    },
    Workload("snapshot.compare-array-elements", unit: "elements", count: 500) { n in
        let body = "[" + joined(n, separator: ",") { "{\"id\":\($0)}" } + "]"
        let checker = snapshotChecker(body: body, name: "array-\(n)")
        return { keep(checker()) }
    },
]

/// Writes a raw HTTP recording of one JSON response and its exact snapshot to a temporary
/// folder, and returns the check of that file (which compares the body with the snapshot).
func snapshotChecker(body: String, name: String) -> @Sendable () -> RecordingCheck {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-linearity-\(getpid())")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("\(name).http").path
    let recording = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    precondition(FileManager.default.createFile(atPath: path, contents: Data(recording.utf8)))
    let value = try! JSONFormat().decode(Array(body.utf8)).resolved()
    try! Snapshot(entries: [Snapshot.Entry(index: 0, match: .exact, value: value)]).write(for: path)

    let file = try! FixtureFiles.discover([path])[0]
    let registry = Registry(formats: [JSONFormat()] + Registry.builtInFormats)
    let checker = FixtureChecker(options: CheckOptions(registry: registry))
    let check = checker.check(file)
    precondition(check.readError == nil && check.exchanges.count == 1 && !check.fails(strict: true),
                 "the snapshot workload's recording must check clean: \(check.exchanges.map(\.findings))")
    return { checker.check(file) }
}
