import FoundationEssentials

/// A file to check, and whether it was named explicitly (then it must be a recording) or
/// found in a folder (then a file that is not a recording is passed over).
public struct FixtureFile: Sendable, Hashable {
    /// The path.
    public var path: String
    /// Whether the user named it.
    public var isExplicit: Bool

    /// A file to check (``FixtureFiles/discover(_:)`` makes these; tests make them directly).
    package init(path: String, isExplicit: Bool) {
        self.path = path
        self.isExplicit = isExplicit
    }
}

/// Finding recordings in files and folders, and splitting them into shards.
public enum FixtureFiles {
    /// The files under `paths` in a deterministic order (each argument's files sorted by path),
    /// skipping hidden entries, snapshot sidecars, documentation (`README`, `LICENSE`, `.md`) and
    /// files still being written (`.partial`, as ``HARRecorder`` names them until they are complete).
    public static func discover(_ paths: [String]) throws(RecordingError) -> [FixtureFile] {
        var files: [FixtureFile] = []
        var seen = Set<String>()
        for path in paths {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw RecordingError(.unreadable, path: path, "no such file or folder")
            }
            if !isDirectory {
                if seen.insert(path).inserted { files.append(FixtureFile(path: path, isExplicit: true)) }
                continue
            }
            let folder = path.hasSuffix("/") ? path : path + "/"
            let found = regularFiles(in: folder).filter(isCandidate).map { folder + $0 }
            for file in found.sorted() where seen.insert(file).inserted {
                files.append(FixtureFile(path: file, isExplicit: false))
            }
        }
        return files
    }

    /// The regular files in `folder` (ending in `/`) and its subfolders, as paths relative to it.
    /// Hidden entries are skipped and symbolic links are not followed, so a link cannot make the
    /// walk loop; a folder that cannot be listed is passed over.
    private static func regularFiles(in folder: String, under prefix: String = "") -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder + prefix) else { return [] }
        var found: [String] = []
        for name in names where !name.hasPrefix(".") {
            let relative = prefix + name
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder + relative)
            switch attributes?[.type] as? FileAttributeType {
            case .typeDirectory?: found += regularFiles(in: folder, under: relative + "/")
            case .typeRegular?: found.append(relative)
            default: continue
            }
        }
        return found
    }

    static func isCandidate(_ relativePath: String) -> Bool {
        let name = relativePath.split(separator: "/").last.map(String.init) ?? relativePath
        let upper = name.uppercased()
        if Snapshot.isSidecar(name) || upper.hasSuffix(".PARTIAL") { return false }
        if upper.hasPrefix("README") || upper.hasPrefix("LICENSE") || upper.hasPrefix("COPYING")
            || upper.hasSuffix(".MD") {
            return false
        }
        return true
    }

    /// The files of shard `index` (1-based) of `count`: a file belongs to the shard its path's
    /// FNV-1a hash selects, so adding a file never moves the others.
    public static func shard(_ files: [FixtureFile], index: Int, of count: Int) -> [FixtureFile] {
        precondition(count >= 1 && (1...count).contains(index), "shard \(index)/\(count) is out of range")
        return files.filter { Int(fnv1a($0.path) % UInt64(count)) == index - 1 }
    }

    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
