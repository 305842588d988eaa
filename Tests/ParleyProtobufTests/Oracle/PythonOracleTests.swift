import Foundation
import Parley
import ParleyJSON
import ParleyProtobuf
import ParleyTestKit
import Testing

/// The outside oracle: Google's protoc (grpcio-tools 1.71.0) compiles `Resources/oracle_test.proto` and
/// `Resources/oracle_groups.proto` (proto2 groups) into a descriptor set (checked against the committed one) and
/// Python classes; Google's Python protobuf (5.29.4) fills random messages of both from a fixed seed. Parley's
/// JSON of each message's wire bytes must equal `json_format.MessageToDict` as a value, and Parley's encoding
/// of that JSON must parse back (`ParseFromString`) to an equal message. `make test` installs the packages;
/// without them the test fails and says how to install them.
@Suite struct PythonOracleTests {
    static let seed = 20_261_128
    static let count = 1000

    @Test func parleyAgreesWithGooglesPythonProtobuf() throws {
        let root = try #require(Corpora.packageRoot())
        let script = root.appendingPathComponent("Tests/ParleyProtobufTests/Resources/protobuf_oracle.py").path
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-protobuf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let generated = try Self.python([script, "generate", folder.path, String(Self.count), String(Self.seed)])
        guard generated.status == 0 else {
            Issue.record("""
                protobuf_oracle.py generate failed (\(generated.status)); `make test` installs its packages, or \
                `python3 -m pip install grpcio-tools==1.71.0 protobuf==5.29.4`: \(generated.output.suffix(2000))
                """)
            return
        }
        let descriptorSet = [UInt8](try Data(contentsOf: folder.appendingPathComponent("oracle_test.binpb")))
        let protobuf = try ProtobufFormat(descriptorSets: [descriptorSet])
        let cases = try JSONFormat().decode([UInt8](try Data(contentsOf: folder.appendingPathComponent("cases.json"))))
        var results: [Value] = []
        var failures = 0
        for (index, item) in (cases.arrayValue ?? []).enumerated() {
            let wire = try #require(Base64.decode(item["wire"]?.stringValue ?? ""))
            let type = try MediaType(parsing: "application/protobuf; messageType=\(item["type"]?.stringValue ?? "")")
            var result = Value.Object()
            do {
                result.append(key: "json", value: try protobuf.decode(wire, as: type))
            } catch {
                failures += 1
                Issue.record("case \(index): Parley could not decode: \(error)")
                result.append(key: "json", value: .null)
            }
            do {
                let bytes = try protobuf.encode(item["json"] ?? .null, as: type)
                result.append(key: "wire", value: .string(Base64.encode(bytes)))
            } catch {
                failures += 1
                Issue.record("case \(index): Parley could not encode: \(error)")
                result.append(key: "wire", value: "")
            }
            results.append(.object(result))
        }
        #expect(results.count == 2 * Self.count)
        try Data(try JSONFormat().encode(.array(results))).write(to: folder.appendingPathComponent("results.json"))
        let verified = try Self.python([script, "verify", folder.path])
        print(verified.output.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(verified.status == 0, "the oracle disagrees: \(verified.output.prefix(4000))")
        #expect(failures == 0)
    }

    static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}

/// Base64 for the oracle's files (Foundation's, standard alphabet with padding).
enum Base64 {
    static func decode(_ text: String) -> [UInt8]? { Data(base64Encoded: text).map { [UInt8]($0) } }
    static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}
