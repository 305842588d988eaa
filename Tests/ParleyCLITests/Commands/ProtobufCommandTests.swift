import Foundation
import Testing

/// The protobuf format linked into `parley`, configured by `--descriptor-set`: listed with its message types,
/// transcoded both ways, and read by `parley check` in recordings.
@Suite struct ProtobufCommandTests {
    static let descriptorSet = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../ParleyProtobufTests/Resources/oracle_test.binpb").standardized.path
    /// `parley.test.Scalars` with `f_int32 = 7`, `f_string = "hi"`, `f_int64 = -1`.
    static let message: [UInt8] = [0x18, 0x07, 0x20] + Array(repeating: 0xFF, count: 9) + [0x01, 0x72, 0x02, 0x68, 0x69]
    static let type = "application/protobuf; messageType=parley.test.Scalars"

    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-protobuf-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func formatsListsProtobufAndItsMessageTypes() throws {
        let plain = try ParleyProcess.run(["formats"])
        #expect(plain.stdout.contains("protobuf\n  decodes: application/protobuf, application/x-protobuf, "
                                      + "application/vnd.google.protobuf"))
        let listed = try ParleyProcess.run(["formats", "--descriptor-set", Self.descriptorSet])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("  message types: google.protobuf.Any, "))
        #expect(listed.stdout.contains("parley.test.Everything, parley.test.Maps"))
        let json = try ParleyProcess.run(["formats", "--json", "--descriptor-set", Self.descriptorSet])
        #expect(json.stdout.contains(#""messageTypes": ["google.protobuf.Any""#))
    }

    @Test func decodeTranscodesProtobufToJSONAndBack() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = folder.appendingPathComponent("scalars.bin")
        try Data(Self.message).write(to: body)
        let json = try ParleyProcess.run(["decode", body.path, "--content-type", Self.type,
                                          "--descriptor-set", Self.descriptorSet, "--to", "application/json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout == #"{"fInt32":7,"fInt64":"-1","fString":"hi"}"# + "\n", "\(json.stdout)")

        let input = folder.appendingPathComponent("in.json")
        try Data(#"{"f_string": "hi", "fInt32": 7, "fInt64": -1}"#.utf8).write(to: input)
        let output = folder.appendingPathComponent("out.bin")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "\"$0\" decode \"$1\" --descriptor-set \"$2\" --to \"$3\" > \"$4\"",
                           ParleyProcess.executable.path, input.path, Self.descriptorSet, Self.type, output.path]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        #expect([UInt8](try Data(contentsOf: output)) == Self.message)
    }

    @Test func aMissingSchemaOrMessageTypeIsATypedFailure() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = folder.appendingPathComponent("scalars.bin")
        try Data(Self.message).write(to: body)
        let noSchema = try ParleyProcess.run(["decode", body.path, "--content-type", Self.type])
        #expect(noSchema.status == 1)
        #expect(noSchema.stderr.contains("missingSchema"), "\(noSchema.stderr)")
        let noType = try ParleyProcess.run(["decode", body.path, "--content-type", "application/protobuf",
                                            "--descriptor-set", Self.descriptorSet])
        #expect(noType.status == 1)
        #expect(noType.stderr.contains("missingMessageType"), "\(noType.stderr)")
        let notASet = folder.appendingPathComponent("not-a-set.txt")
        try Data("not a descriptor set".utf8).write(to: notASet)
        let badSet = try ParleyProcess.run(["decode", body.path, "--content-type", Self.type,
                                            "--descriptor-set", notASet.path])
        #expect(badSet.status == 2, "\(badSet.stderr)")
        #expect(badSet.stderr.contains("--descriptor-set"), "\(badSet.stderr)")
    }

    @Test func checkReadsProtobufBodiesInRecordings() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        func har(_ body: [UInt8]) -> String {
            """
            {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [{
              "startedDateTime": "2026-11-20T10:00:00.000Z", "time": 1,
              "request": {"method": "GET", "url": "https://api.example.org/scalars/7", "httpVersion": "HTTP/1.1",
                          "headers": [{"name": "Accept", "value": "application/protobuf"}],
                          "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
              "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                           "headers": [{"name": "Content-Type", "value": "\(Self.type)"}], "cookies": [],
                           "content": {"size": \(body.count), "mimeType": "\(Self.type)", "encoding": "base64",
                                       "text": "\(Data(body).base64EncodedString())"},
                           "redirectURL": "", "headersSize": -1, "bodySize": \(body.count)},
              "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}
            """
        }
        let good = folder.appendingPathComponent("good.har")
        try Data(har(Self.message).utf8).write(to: good)
        let passed = try ParleyProcess.run(["check", good.path, "--descriptor-set", Self.descriptorSet])
        #expect(passed.status == 0, "\(passed.stdout)")
        #expect(passed.stdout.contains("PASSED"))

        let truncated = folder.appendingPathComponent("truncated.har")
        try Data(har([0x72, 0x05, 0x68]).utf8).write(to: truncated)
        let failed = try ParleyProcess.run(["check", truncated.path, "--descriptor-set", Self.descriptorSet])
        #expect(failed.status == 1, "\(failed.stdout)")
        #expect(failed.stdout.contains("truncated"), "\(failed.stdout)")
    }
}
