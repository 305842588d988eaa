import BenchmarkInputs
import CProcessMemory
import Foundation
import FoundationXML
import Glibc
import Parley
import ParleyJSON
import ParleyXML
import ParleyYAML
import PerfWorkloads

// Peak resident memory per decoded byte, and what a kept value holds. Each measurement runs in a
// child process of its own (this executable with --memory-worker), which reads its document from
// a file, so nothing of the parent's or another measurement's heap is counted:
//   peak: the peak resident set (VmHWM, reset just before by writing 5 to /proc/self/clear_refs)
//         minus the resident set just before decoding (the input already read), per input byte;
//   kept: the resident set after decoding, keeping one value, dropping the rest and malloc_trim,
//         minus the resident set before decoding.

/// The resident set figures of /proc/self/status, in bytes.
func residentSet() -> (current: Int, peak: Int) {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
    func field(_ name: String) -> Int {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first { Int($0) != nil } ?? "") ?? 0) * 1024
    }
    return (field("VmRSS"), field("VmHWM"))
}

/// Resets the peak resident set to the current one (Linux 4.0+); false when the kernel refuses.
func resetPeak() -> Bool {
    let file = open("/proc/self/clear_refs", O_WRONLY)
    guard file >= 0 else { return false }
    defer { close(file) }
    return write(file, "5", 1) == 1
}

/// What a memory worker measures, by name; what it returns is kept until the figures are read.
func memoryCase(_ name: String) -> ((_ bytes: [UInt8]) throws -> Any)? {
    switch name {
    case "json-decode-walk": { consume(walk(try JSONFormat().decode($0))); return 0 }
    case "json-codable": { try JSONFormat().decode([APIRecord].self, from: $0) }
    case "json-serialization-walk":
        { consume(walkFoundation(try JSONSerialization.jsonObject(with: Data($0)))); return 0 }
    case "xml-value": { try XMLFormat().decode($0) }
    case "xml-tree-walk": { consume(walk(try XML.Document(parsing: $0))); return 0 }
    case "xml-foundation-document": { consume(walk(try FoundationXML.XMLDocument(data: Data($0)))); return 0 }
    case "yaml-value": { try YAMLFormat().decode($0) }
    // The kept-value cases: the document is {"kept": {~1 KB}, "body": [20 MB]}.
    case "kept-deferred": { try JSONFormat().decode($0)["kept"] as Any }
    case "kept-resolved": { try JSONFormat().decode($0)["kept"]?.resolved() as Any }
    case "kept-nothing": { consume(try JSONFormat().decode($0)); return 0 }
    default: nil
    }
}

/// The worker: measures `name` on the document in `file`; prints `before<TAB>peak<TAB>after` in bytes.
func memoryWorker(_ name: String, file: String) throws -> Never {
    guard let measure = memoryCase(name) else { throw ReportError("no memory case \(name)") }
    let bytes = try readFile(file)
    _ = process_memory_trim()
    let before = residentSet().current
    guard resetPeak() else { throw ReportError("cannot reset the peak resident set (/proc/self/clear_refs)") }
    var kept: Any? = try measure(bytes)
    let peak = residentSet().peak
    _ = process_memory_trim()
    let after = residentSet().current
    // The input stays allocated until here, so it is in both `before` and `after`.
    withExtendedLifetime(bytes) {}
    withExtendedLifetime(kept) {}
    kept = nil
    print("\(before)\t\(peak)\t\(after)")
    exit(0)
}

/// The file's bytes, read straight into the array (no `Data` left behind to be freed later).
func readFile(_ path: String) throws -> [UInt8] {
    let file = open(path, O_RDONLY)
    guard file >= 0 else { throw ReportError("cannot open \(path)") }
    defer { close(file) }
    var status = stat()
    guard fstat(file, &status) == 0 else { throw ReportError("cannot stat \(path)") }
    let size = Int(status.st_size)
    return try [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        while count < size {
            let read = Glibc.read(file, buffer.baseAddress! + count, size - count)
            guard read > 0 else { throw ReportError("cannot read \(path)") }
            count += read
        }
    }
}

/// Runs one worker in a child process; returns (before, peak, after) in bytes.
func measureInChild(_ name: String, file: URL) throws -> (before: Int, peak: Int, after: Int) {
    let (status, text) = try runSelf(["--memory-worker", name, file.path])
    let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    guard status == 0, fields.count == 3 else {
        throw ReportError("memory worker \(name) exited \(status): \(text)")
    }
    return (fields[0], fields[1], fields[2])
}

/// Writes the 20 MB documents and measures every memory case; prints two tables.
func memoryFigures(folder: URL) throws {
    let api = makeAPIDocument(size: 20 << 20, seed: 2)
    let kept = makeAPIDocument(size: 1 << 10, seed: 7)
    let documents: [(file: String, bytes: [UInt8])] = [
        ("api-20mb.json", api),
        ("catalogue-20mb.xml", catalogue(bytes: 20 << 20)),
        ("records-20mb.yaml", makeYAMLRecords(targetBytes: 20 << 20)),
        ("kept.json", Array(#"{"kept":{"records":"#.utf8) + kept + Array(#"},"body":"#.utf8) + api + Array("}".utf8)),
    ]
    var sizes: [String: Int] = [:]
    for (file, bytes) in documents {
        try Data(bytes).write(to: folder.appendingPathComponent(file))
        sizes[file] = bytes.count
    }
    let megabyte = 1_048_576.0
    print("\nPeak resident memory per input byte (20 MB documents; a child process each: VmHWM after "
          + "the call minus VmRSS before it, the input already read)\n")
    let peakCases: [(String, String, String)] = [
        ("JSON decode + walk every value", "json-decode-walk", "api-20mb.json"),
        ("JSON Codable [APIRecord]", "json-codable", "api-20mb.json"),
        ("(anchor) JSONSerialization + walk", "json-serialization-walk", "api-20mb.json"),
        ("XML decode to the value tree", "xml-value", "catalogue-20mb.xml"),
        ("XML tree + walk", "xml-tree-walk", "catalogue-20mb.xml"),
        ("(anchor) FoundationXML XMLDocument + walk", "xml-foundation-document", "catalogue-20mb.xml"),
        ("YAML decode to the value tree", "yaml-value", "records-20mb.yaml"),
    ]
    var rows: [[String]] = []
    for (label, name, file) in peakCases {
        let size = sizes[file]!
        let figures = try measureInChild(name, file: folder.appendingPathComponent(file))
        let peak = figures.peak - figures.before
        rows.append([label, String(format: "%.1f MB", Double(size) / megabyte),
                     String(format: "%.0f MB", Double(peak) / megabyte),
                     String(format: "%.1f", Double(peak) / Double(size))])
    }
    printTable(["path", "input", "peak over input", "bytes per input byte"], rows)

    let keptSize = sizes["kept.json"]!
    let keptMegabytes = String(format: "%.1f", Double(keptSize) / megabyte)
    print("\nThe kept value: decode {\"kept\": {\(kept.count + 12)-byte object}, \"body\": [20 MB]} "
          + "(\(keptMegabytes) MB), "
          + "keep only the \"kept\" member, drop the rest, malloc_trim; resident memory then minus before decoding "
          + "(the input itself, held throughout, is in both)\n")
    rows = []
    for (label, name) in [("keep nothing", "kept-nothing"),
                          ("keep value[\"kept\"] as decoded (deferred)", "kept-deferred"),
                          ("keep value[\"kept\"]?.resolved()", "kept-resolved")] {
        let figures = try measureInChild(name, file: folder.appendingPathComponent("kept.json"))
        let held = figures.after - figures.before
        rows.append([label, String(format: "%.1f MB", Double(held) / megabyte),
                     String(format: "%.2f", Double(held) / Double(keptSize))])
    }
    printTable(["kept", "resident after, over before", "bytes per body byte"], rows)
}
