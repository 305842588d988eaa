public import Foundation

/// Finds the shared conformance corpora (`../shared/corpora` beside the package checkout).
///
/// Tests that use a corpus call ``directory(_:filePath:)`` and skip with a visible message
/// when it returns `nil`, so a fresh clone without `../shared` still passes.
/// Set `PARLEY_CORPORA` to point somewhere else.
public enum Corpora {
    /// The folder of corpus `name` (`"json"`, `"yaml"`, `"recorded"`, …), or `nil` when absent.
    ///
    /// - Parameters:
    ///   - name: The corpus folder name under `corpora/`.
    ///   - filePath: The calling test file; the package root is found above it.
    public static func directory(_ name: String, filePath: String = #filePath) -> URL? {
        let fileManager = FileManager.default
        if let override = ProcessInfo.processInfo.environment["PARLEY_CORPORA"] {
            let url = URL(fileURLWithPath: override).appendingPathComponent(name)
            return fileManager.fileExists(atPath: url.path) ? url : nil
        }
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if fileManager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
                !fileManager.fileExists(
                    atPath: folder.deletingLastPathComponent().appendingPathComponent("Package.swift").path) {
                let url = folder.deletingLastPathComponent().appendingPathComponent("shared/corpora/\(name)")
                return fileManager.fileExists(atPath: url.path) ? url : nil
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// The package root above `filePath` (the folder holding `Package.swift`).
    public static func packageRoot(filePath: String = #filePath) -> URL? {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// The message a test prints when it skips for a missing corpus.
    public static func missingMessage(_ name: String) -> String {
        "corpus '\(name)' not found (expected ../shared/corpora/\(name) beside the checkout, or PARLEY_CORPORA): "
            + "skipped"
    }

    /// The shared JSON documents, as names for ``bytes(of:filePath:)``: JSONTestSuite's accepted ones
    /// (`json/y_…`) and the real-world API documents; none (with a printed message) when the
    /// corpora are absent.
    public static func jsonDocuments(filePath: String = #filePath) -> [String] {
        var names: [String] = []
        if let suite = directory("json", filePath: filePath) {
            names += ((try? FileManager.default.contentsOfDirectory(atPath: suite.path)) ?? [])
                .filter { $0.hasPrefix("y_") && $0.hasSuffix(".json") }.sorted().map { "json/" + $0 }
        }
        if let realWorld = directory("real-world", filePath: filePath) {
            let folder = realWorld.appendingPathComponent("documents/json")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            names += files.filter { $0.hasSuffix(".json") }.sorted().map { "real-world/documents/json/" + $0 }
        }
        if names.isEmpty { print(missingMessage("json")) }
        return names
    }

    /// The bytes of a document named as ``jsonDocuments(filePath:)`` names it: a corpus folder,
    /// then the path inside it.
    public static func bytes(of document: String, filePath: String = #filePath) throws -> [UInt8] {
        let parts = document.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let folder = directory(String(parts[0]), filePath: filePath) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent(String(parts[1]))))
    }
}
