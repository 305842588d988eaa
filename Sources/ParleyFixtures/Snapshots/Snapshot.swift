import FoundationEssentials
public import Parley
import ParleyJSON

/// Pinned expectations for a recording, kept in a sidecar file next to it
/// (`name.har` → `name.har.parley.json`):
///
/// ```json
/// {"exchanges": [
///   {"index": 0, "match": "exact",  "value": {"id": {"$int": "1"}, "login": "octocat"}},
///   {"index": 2, "match": "subset", "value": {"message": "Not Found"}}
/// ]}
/// ```
///
/// Values are typed JSON (see `Value.typedJSON` in the core). `exact` requires the decoded body to
/// equal the value; `subset` requires every member the value names to be present and equal
/// (objects may have more members; arrays must have the same length, their elements compared
/// the same way).
public struct Snapshot: Sendable, Hashable {
    /// How a pinned value is compared.
    public enum Match: String, Sendable, Hashable {
        /// The decoded value must equal the pinned one.
        case exact
        /// The decoded value must contain the pinned one.
        case subset
    }

    /// One pinned exchange.
    public struct Entry: Sendable, Hashable {
        /// The exchange's position in the recording.
        public var index: Int
        /// How to compare.
        public var match: Match
        /// The expected value.
        public var value: Value

        /// Creates an entry.
        public init(index: Int, match: Match, value: Value) {
            self.index = index
            self.match = match
            self.value = value
        }
    }

    /// The pinned exchanges, by index order.
    public var entries: [Entry]

    /// Creates a snapshot.
    public init(entries: [Entry]) {
        self.entries = entries.sorted { $0.index < $1.index }
    }

    /// The sidecar path for a recording.
    public static func sidecarPath(for recordingPath: String) -> String { recordingPath + ".parley.json" }

    /// Whether `path` is a sidecar file rather than a recording.
    public static func isSidecar(_ path: String) -> Bool { path.hasSuffix(".parley.json") }

    /// Reads the sidecar of a recording; `nil` when there is none.
    public static func load(for recordingPath: String) throws(RecordingError) -> Snapshot? {
        let path = sidecarPath(for: recordingPath)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RecordingError(.unreadable, path: path, "cannot read the snapshot file")
        }
        do {
            let root = try JSONFormat().decode([UInt8](data))
            guard let list = root["exchanges"]?.arrayValue else {
                throw RecordingError(.malformed, path: path, "a snapshot file needs an \"exchanges\" list")
            }
            var entries: [Entry] = []
            for item in list {
                guard let index = item["index"]?.integerValue, let value = item["value"] else {
                    throw RecordingError(.malformed, path: path, "each snapshot entry needs \"index\" and \"value\"")
                }
                let match = Match(rawValue: item["match"]?.stringValue ?? "exact")
                guard let match else {
                    throw RecordingError(.malformed, path: path, "\"match\" must be \"exact\" or \"subset\"")
                }
                entries.append(Entry(index: Int(index), match: match, value: try Value(typedJSON: value)))
            }
            return Snapshot(entries: entries)
        } catch let error as RecordingError {
            throw error
        } catch {
            throw RecordingError(.malformed, path: path, "invalid snapshot: \(error)")
        }
    }

    /// The sidecar's JSON text.
    public func encoded() throws -> [UInt8] {
        let list: [Value] = entries.map { entry in
            .object(["index": .integer(Int64(entry.index)), "match": .string(entry.match.rawValue),
                     "value": entry.value.typedJSON])
        }
        var options = JSONFormat.Options()
        options.isPrettyPrinted = true
        return try JSONFormat(options: options).encode(.object(["exchanges": .array(list)])) + [0x0A]
    }

    /// Writes the sidecar of a recording.
    public func write(for recordingPath: String) throws {
        try Data(encoded()).write(to: URL(fileURLWithPath: Self.sidecarPath(for: recordingPath)), options: .atomic)
    }
}
