/// The kinds of recording Parley reads.
public enum RecordingKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// HAR 1.2 (browser and proxy exports).
    case har
    /// A Ruby vcr cassette serialized as YAML.
    case rubyVCRYAML = "vcr-yaml"
    /// A Ruby vcr cassette serialized as JSON.
    case rubyVCRJSON = "vcr-json"
    /// A vcrpy cassette (YAML).
    case vcrpy
    /// A go-vcr cassette, format version 1.
    case goVCR1 = "go-vcr-v1"
    /// A go-vcr cassette, format version 2.
    case goVCR2 = "go-vcr-v2"
    /// Raw HTTP/1.x responses as `curl -i` writes them.
    case rawHTTP = "raw-http"

    public var description: String { rawValue }
}

/// A recording read from a file: its kind and its exchanges in recorded order.
public struct Recording: Sendable, Hashable {
    /// Where it came from, as given to the reader.
    public var path: String
    /// What kind of recording it is.
    public var kind: RecordingKind
    /// The exchanges, in order.
    public var exchanges: [RecordedExchange]
    /// The size of the file in bytes.
    public var byteCount: Int

    /// Creates a recording.
    public init(path: String, kind: RecordingKind, exchanges: [RecordedExchange], byteCount: Int) {
        self.path = path
        self.kind = kind
        self.exchanges = exchanges
        self.byteCount = byteCount
    }
}
