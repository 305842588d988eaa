import Foundation

/// Keeps a recording folder within its limits: the oldest finished HAR files (`PREFIX-*.har`,
/// whose names sort by time) are removed while the folder holds more than `maxFiles` of them
/// or more than `maxBytes` in all, and files older than `maxAge`; `.partial` files no recorder
/// has written to for `staleAfter` (left by a write that failed) are removed too.
struct RecordingRetention: Sendable {
    let directory: String
    let prefix: String
    var maxBytes: Int?
    var maxFiles: Int?
    var maxAge: Duration?
    /// A `.partial` file untouched this long belongs to no live recorder.
    var staleAfter: Duration = .seconds(120)

    /// One finished or partial file of the folder.
    private struct File {
        var name: String
        var size: Int
        var modified: Date
    }

    /// Removes what is over the limits; returns the names removed, oldest first.
    @discardableResult
    func sweep(now: Date = Date()) -> [String] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else { return [] }
        var finished: [File] = []
        var removed: [String] = []
        for name in names.sorted() where name.hasPrefix(prefix + "-") {
            guard let attributes = try? manager.attributesOfItem(atPath: directory + "/" + name),
                  attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            let size = (attributes[.size] as? Int) ?? (attributes[.size] as? UInt64).map { Int(clamping: $0) } ?? 0
            let file = File(name: name, size: size,
                            modified: attributes[.modificationDate] as? Date ?? now)
            if name.hasSuffix(".har") {
                finished.append(file)
            } else if name.hasSuffix(".har.partial"), now.timeIntervalSince(file.modified) > Self.seconds(staleAfter),
                      remove(name) {
                removed.append(name)
            }
        }
        var total = finished.reduce(0) { $0 + $1.size }
        for (index, file) in finished.enumerated() {
            let left = finished.count - index
            let over = (maxFiles.map { left > $0 } ?? false) || (maxBytes.map { total > $0 } ?? false)
                || (maxAge.map { now.timeIntervalSince(file.modified) > Self.seconds($0) } ?? false)
            guard over else { continue }
            if remove(file.name) {
                removed.append(file.name)
                total -= file.size
            }
        }
        return removed
    }

    private func remove(_ name: String) -> Bool {
        (try? FileManager.default.removeItem(atPath: directory + "/" + name)) != nil
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
