import Benchmark
import Foundation
import Parley
import ParleyFixtures
import ParleyJSON

// Reading and checking recordings, side by side with what a user would otherwise write:
// JSONSerialization over the HAR plus Foundation's base64 for the bodies.
// The input is generated deterministically: a HAR of 400 entries (about 4 MB) with JSON bodies,
// every fourth stored base64 and gzip-coded like browser exports of compressed responses.
// The scale figure (10,000 recordings, 1 GB) comes from `Benchmarks/Scripts/make-recorded-corpus.py`
// and `parley check --stats`; see the README there.

func makeHAR(entries: Int) -> [UInt8] {
    var items: [String] = []
    for index in 0..<entries {
        let records = (0..<40).map { i in
            """
            {"id":\(index * 100 + i),"name":"user \(i) – Zürich","score":\(Double(i) * 1.25),\
            "tags":["a","b","c"],"active":\(i % 2 == 0)}
            """
        }
        let body = "[" + records.joined(separator: ",") + "]"
        let binary = index % 4 == 0
        let text = binary ? Data(body.utf8).base64EncodedString() : body
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        items.append("""
        {"startedDateTime":"2026-11-20T10:00:00.000Z","time":12,"request":\
        {"method":"GET","url":"https://api.example.org/items/\(index)?page=\(index % 7)","httpVersion":"HTTP/1.1",\
        "headers":[{"name":"Accept","value":"application/json"}],"queryString":[],"cookies":[],"headersSize":-1,\
        "bodySize":0},"response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1",\
        "headers":[{"name":"Content-Type","value":"application/json; charset=utf-8"},\
        {"name":"Cache-Control","value":"max-age=60"}],"cookies":[],\
        "content":{"size":\(body.utf8.count),"mimeType":"application/json"\(binary ? ",\"encoding\":\"base64\"" : ""),\
        "text":"\(escaped)"},"redirectURL":"","headersSize":-1,"bodySize":\(body.utf8.count)},\
        "cache":{},"timings":{"send":1,"wait":10,"receive":1}}
        """)
    }
    let log = """
        {"log":{"version":"1.2","creator":{"name":"bench","version":"1"},\
        "entries":[\(items.joined(separator: ","))]}}
        """
    return Array(log.utf8)
}

let har = makeHAR(entries: 400)

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal, .throughput],
                                                maxDuration: .seconds(4), maxIterations: 200)
    let reader = RecordingReader()
    let registry = Registry(formats: [JSONFormat()] + Registry.builtInFormats)

    Benchmark("Fixtures.read-har-4mb", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try reader.read(bytes: har, path: "bench.har"))
        }
    }
    let data = Data(har)
    Benchmark("Fixtures.read-har-4mb-JSONSerialization", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
            let entries = (root["log"] as! [String: Any])["entries"] as! [[String: Any]]
            var bodies: [Data] = []
            for entry in entries {
                let content = (entry["response"] as! [String: Any])["content"] as! [String: Any]
                let text = content["text"] as! String
                bodies.append(content["encoding"] as? String == "base64" ? Data(base64Encoded: text)! : Data(text.utf8))
            }
            blackHole(bodies)
        }
    }
    Benchmark("Fixtures.check-har-4mb", configuration: configuration) { benchmark in
        let checker = ExchangeChecker(options: CheckOptions(registry: registry))
        for _ in benchmark.scaledIterations {
            let recording = try reader.read(bytes: har, path: "bench.har")
            for exchange in recording.exchanges {
                blackHole(checker.check(exchange, path: recording.path, kind: recording.kind))
            }
        }
    }
    Benchmark("Fixtures.check-har-4mb-JSONSerialization", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
            let entries = (root["log"] as! [String: Any])["entries"] as! [[String: Any]]
            for entry in entries {
                let content = (entry["response"] as! [String: Any])["content"] as! [String: Any]
                let text = content["text"] as! String
                let body = content["encoding"] as? String == "base64" ? Data(base64Encoded: text)! : Data(text.utf8)
                blackHole(try JSONSerialization.jsonObject(with: body))
            }
        }
    }
}
