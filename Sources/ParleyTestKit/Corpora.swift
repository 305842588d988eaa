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
}
