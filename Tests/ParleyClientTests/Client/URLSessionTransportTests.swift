import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes
import Parley
import ParleyHTTP
import ParleyClient
import ParleyJSON
import Testing

/// `Resources/echo_server.py` on 127.0.0.1, on a port the kernel picks; stopped on deinit.
final class LoopbackServer {
    let process = Process()
    let port: Int

    static var python: String? {
        ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"].first(
            where: FileManager.default.isExecutableFile(atPath:))
    }

    init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/echo_server.py")
        process.executableURL = URL(fileURLWithPath: Self.python ?? "/usr/bin/python3")
        process.arguments = ["-u", script.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The first line is the port.
        var line: [UInt8] = []
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard let first = byte.first else { break }
            if first == UInt8(ascii: "\n") { break }
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    deinit {
        process.terminate()
        // The script unblocks SIGTERM itself; if it still runs after 2 s, kill it.
        for _ in 0..<20 where process.isRunning { usleep(100_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// Needs python3 for the loopback server; in CI (`CI` set) a missing python3 fails instead of skipping.
@Suite(.enabled(if: LoopbackServer.python != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                "python3 is needed for the loopback server"))
struct URLSessionTransportTests {
    /// One end-to-end run of the live transport against a real server on loopback: a GET with a
    /// query and default headers, a JSON POST, and a multipart upload of a file that comes back
    /// byte for byte.
    @Test func liveTransportAgainstALoopbackServer() async throws {
        let server = try LoopbackServer()
        let serializer = ParameterRequestSerializer(
            registry: jsonRegistry,
            defaultHeaders: DefaultHeaders(
                registry: jsonRegistry, languages: ["fr-CH", "fr"], userAgent: "E2E/1 Parley"))
        let client = Client(
            baseURL: URL(string: "http://127.0.0.1:\(server.port)/api")!, transport: URLSessionTransport(),
            registry: jsonRegistry, requestSerializer: serializer)

        let get = try await client.get("echo", parameters: ["q": "a b", "n": 1])
        #expect(get.response.status == .ok)
        #expect(get.value["method"] == "GET")
        #expect(get.value["path"] == "/api/echo?n=1&q=a%20b")
        #expect(get.value["headers"]?["accept-language"] == "fr-CH, fr;q=0.9")
        #expect(get.value["headers"]?["user-agent"] == "E2E/1 Parley")

        let post = try await client.post("echo", parameters: ["name": "Zoë"])
        #expect(post.value["method"] == "POST")
        #expect(post.value["headers"]?["content-type"] == "application/json; charset=utf-8")
        #expect(post.value["body"] == #"{"name":"Zoë"}"#)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("data.bin")
        try Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: file)
        var form = MultipartFormData()
        form.append(name: "title", value: "Ünïcode")
        try form.append(name: "file", fileAt: file.path)
        let upload = try await client.upload(
            "raw", multipart: form, responseSerializer: ValueResponseSerializer(registry: jsonRegistry))
        #expect(upload.value == .bytes(try form.encodedBytes()))
        #expect(upload.body.count == form.contentLength)

        await #expect { _ = try await client.get("status/503") } throws: {
            ($0 as? ParleyError)?.response?.status.code == 503
        }
    }

    /// URLSession (curl on Linux) undoes the codings it knows itself and leaves the fields: the
    /// transport must say so, or a binary body already decoded would be taken for brotli (which
    /// has no signature) and fail as corrupt. Every coding the client asks for, binary bytes.
    @Test(arguments: ["gzip", "deflate", "br", "zstd"])
    func codedBinaryBodiesComeBackAsSent(coding: String) async throws {
        let server = try LoopbackServer()
        let client = Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, transport: URLSessionTransport(),
                            registry: jsonRegistry)
        let reply = try await client.get("coded/\(coding)")
        #expect(reply.value == .bytes(Array(0...255)))
        #expect(reply.response.headerFields[.contentEncoding] == nil)
    }
}
