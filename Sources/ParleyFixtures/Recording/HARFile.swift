import FoundationEssentials
import Parley
import ParleyHTTP
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One HAR file being written: created as `NAME.har.partial` (never replacing a file), entries
/// appended as they come, and on ``finish()`` the epilogue written and the file renamed to
/// `NAME.har` (never over an existing file), so readers of the folder see only complete logs.
struct HARFile {
    /// The `.har` path the file gets when finished.
    let finalPath: String
    /// The path while it is written.
    let partialPath: String
    let openedAt: Date
    private(set) var entryCount = 0
    private let descriptor: Int32
    private let directory: String
    private let prefix: String
    private let stamp: String

    static let partialSuffix = ".partial"

    /// Creates the next free `PREFIX-STAMP-NNNN.har.partial` in `directory`, `sequence`
    /// advanced past names in use, and writes the HAR prologue.
    init(directory: String, prefix: String, openedAt: Date, sequence: inout Int) throws(RecordingError) {
        let stamp = Self.stamp(openedAt)
        var attempts = 0
        while true {
            sequence += 1
            let name = Self.name(prefix: prefix, stamp: stamp, sequence: sequence)
            let final = directory + "/" + name
            let partial = final + Self.partialSuffix
            if access(final, F_OK) == 0 { continue }
            let fd = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 {
                let code = errno
                attempts += 1
                if code == EEXIST, attempts < 10_000 { continue }
                throw RecordingError(.unwritable, path: partial,
                                     "cannot create the file (\(String(cString: strerror(code))))")
            }
            let prologue = #"{"log":{"version":"1.2","creator":{"name":"parley","#
                + #""version":"\#(DefaultHeaders.parleyVersion)"},"entries":["#
            do {
                try Self.writeAll(Array(prologue.utf8), to: fd, path: partial)
            } catch {
                close(fd)
                throw error
            }
            self.descriptor = fd
            self.finalPath = final
            self.partialPath = partial
            break
        }
        self.openedAt = openedAt
        self.directory = directory
        self.prefix = prefix
        self.stamp = stamp
    }

    /// Appends one encoded entry.
    mutating func append(_ entry: [UInt8]) throws(RecordingError) {
        var bytes: [UInt8] = Array((entryCount == 0 ? "\n" : ",\n").utf8)
        bytes.reserveCapacity(bytes.count + entry.count)
        bytes.append(contentsOf: entry)
        try Self.writeAll(bytes, to: descriptor, path: partialPath)
        entryCount += 1
    }

    /// Writes the epilogue, closes the file and gives it its `.har` name; returns that path.
    /// Call once; the file is closed afterwards whatever happens.
    func finish() throws(RecordingError) -> String {
        do {
            try Self.writeAll(Array("\n]}}\n".utf8), to: descriptor, path: partialPath)
        } catch {
            abandon()
            throw error
        }
        _ = fsync(descriptor)
        close(descriptor)
        var sequence = Int(finalPath.dropLast(4).split(separator: "-").last ?? "") ?? 0
        var target = finalPath
        // link(2) fails rather than replace a file another recorder finished under this name.
        while link(partialPath, target) != 0 {
            let code = errno
            guard code == EEXIST else {
                // A file system without hard links: rename, which replaces nothing we chose.
                guard rename(partialPath, target) == 0 else {
                    throw RecordingError(.unwritable, path: partialPath,
                                         "cannot rename the file (\(String(cString: strerror(errno))))")
                }
                return target
            }
            sequence += 1
            target = directory + "/" + Self.name(prefix: prefix, stamp: stamp, sequence: sequence)
        }
        unlink(partialPath)
        return target
    }

    /// Closes the file without finishing it; the `.partial` file stays for inspection.
    func abandon() {
        close(descriptor)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(RecordingError) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure != 0 {
            throw RecordingError(.unwritable, path: path, "cannot write (\(String(cString: strerror(failure))))")
        }
    }

    static func name(prefix: String, stamp: String, sequence: Int) -> String {
        let digits = String(sequence)
        return "\(prefix)-\(stamp)-\(String(repeating: "0", count: max(0, 4 - digits.count)))\(digits).har"
    }

    /// `20261125T181700Z`: UTC, to the second, so names sort by time.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : String($0) } ?? "00" }
        return "\(c.year ?? 0)\(two(c.month))\(two(c.day))T\(two(c.hour))\(two(c.minute))\(two(c.second))Z"
    }
}
