import Foundation
import Testing

/// Our own `parley`, built from Parley's CLI library and this package's format: custom formats
/// are listed, matched and decoded exactly like the built-in ones.
@Suite struct KvParleyTests {
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("kv-parley")
    }

    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Samples")

    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self),
                String(decoding: stderr, as: UTF8.self))
    }

    @Test func formatsListsTheCustomFormatLikeTheBuiltIns() throws {
        let result = try run(["formats"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("kv"))
        #expect(result.stdout.contains("application/vnd.example.kv"))
        #expect(result.stdout.contains("application/json"))
    }

    @Test func matchAndNegotiateSeeIt() throws {
        #expect(try run(["match", "--content-type", "application/vnd.example.kv; charset=utf-8"]).stdout
                == "application/vnd.example.kv\n")
        #expect(try run(["negotiate", "--accept", "application/vnd.example.kv, */*;q=0.1",
                         "application/json", "application/vnd.example.kv"]).stdout == "application/vnd.example.kv\n")
    }

    @Test func decodeTranscodesToJSON() throws {
        let result = try run(["decode", Self.samples.appendingPathComponent("person.kv").path,
                              "--content-type", "application/vnd.example.kv", "--to", "application/json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: String]
        #expect(json == ["name": "Ada Lovelace", "born": "1815", "note": "first line\nsecond line", "formula": "a=b"])
    }

    @Test func aBrokenBodyFailsWithExitCodeOne() throws {
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).kv")
        try Data("no equals sign\n".utf8).write(to: broken)
        defer { try? FileManager.default.removeItem(at: broken) }
        let result = try run(["decode", broken.path, "--content-type", "application/vnd.example.kv"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("line 1"))
    }
}
