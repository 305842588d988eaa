import Foundation
import Parley
import ParleyCBOR
import ParleyJSON
import ParleyTestKit
import Testing

/// Interoperability with Python's cbor2 (6.3.0, its C extension), both ways, on random values
/// from fixed seeds: Parley encodes and cbor2 decodes and compares; cbor2 encodes (plain and
/// canonical, dates as text and as timestamps) and Parley decodes and compares. The expected
/// values travel as typed JSON (`Value.typedJSON`). `make test` installs cbor2; without it the
/// test fails and says how to install it.
@Suite struct CBOR2InteropTests {
    static let seed: UInt64 = 0xC0B0_8949
    static let count = 1500

    @Test func parleyAndCBOR2ReadEachOther() throws {
        guard let root = Corpora.packageRoot() else { Issue.record("no package root"); return }
        let script = root.appendingPathComponent("Tests/ParleyCBORTests/Interop/cbor2_oracle.py")
        var generator = SplitMix64(seed: Self.seed)
        var items: [Value] = []
        var values: [Value] = []
        for index in 0..<Self.count {
            let value = RandomValues.value(&generator, depth: 0)
            let format = CBORFormat(options: .init(dateEncoding: index % 3 == 0 ? .text : .epochSeconds,
                                                   isDeterministic: index % 2 == 1))
            values.append(value)
            items.append(["cbor": Value.bytes(try format.encode(value)).typedJSON, "expected": value.typedJSON])
        }
        let request: Value = ["seed": .integer(Int64(Self.seed % 1_000_000)), "count": .integer(Int64(Self.count)),
                              "swift": .array(items)]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cbor2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.json"), output = folder.appendingPathComponent("out.json")
        try Data(try JSONFormat().encode(request)).write(to: input)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, input.path, output.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Issue.record("""
                cbor2_oracle.py failed (\(process.terminationStatus)); cbor2 is installed by `make test`, or \
                `python3 -m pip install cbor2==6.3.0`: \(errorText.suffix(2000))
                """)
            return
        }
        let reply = try JSONFormat().decode([UInt8](try Data(contentsOf: output)))
        let checked = reply["checked"]?.integerValue ?? 0
        let mismatches = reply["mismatches"]?.arrayValue ?? []
        #expect(checked == Int64(Self.count))
        for mismatch in mismatches.prefix(10) {
            Issue.record("cbor2 disagrees: \((mismatch.stringValue ?? "").prefix(600))")
        }

        let python = reply["python"]?.arrayValue ?? []
        #expect(python.count == Self.count)
        var agreed = 0
        for (index, item) in python.enumerated() {
            let bytes = try Value(typedJSON: item["cbor"] ?? .null).bytesValue ?? []
            let expected = try Value(typedJSON: item["expected"] ?? .null)
            do {
                let decoded = try CBORFormat().decode(bytes)
                if RandomValues.matches(expected, decoded) {
                    agreed += 1
                } else {
                    Issue.record("cbor2 item \(index) decoded as \(decoded), expected \(expected)")
                }
            } catch {
                Issue.record("cbor2 item \(index) (\(bytes.count) bytes) threw \(error)")
            }
        }
        print("""
            cbor2 interop: \(checked - Int64(mismatches.count)) of \(Self.count) Parley-encoded values decoded \
            equal by cbor2; \(agreed) of \(python.count) cbor2-encoded values decoded equal by Parley
            """)
        #expect(mismatches.isEmpty)
        #expect(agreed == Self.count)
    }
}
