/// Why a file could not be read as a recording, or a recording could not be written.
public struct RecordingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Reason: String, Sendable, Hashable {
        /// The file could not be opened or read.
        case unreadable
        /// The file is none of the recording kinds Parley reads.
        case notARecording = "not-a-recording"
        /// The file is of a known kind but broken (invalid JSON, a cassette without interactions).
        case malformed
        /// A recording could not be written: its folder cannot be created or written, or a
        /// file in it cannot be created, written or renamed (``HARRecorder``).
        case unwritable
        /// A ``RecordingOptions`` value is invalid (a redaction path that does not parse, a
        /// limit below 1).
        case invalidOptions = "invalid-options"
    }

    /// The kind of failure.
    public var reason: Reason
    /// The file.
    public var path: String
    /// What exactly, with the position where known.
    public var message: String

    /// Creates an error.
    public init(_ reason: Reason, path: String, _ message: String) {
        self.reason = reason
        self.path = path
        self.message = message
    }

    /// `path: message`, with control characters from the recording escaped (ESC as `\u{1B}`).
    public var description: String { TerminalText.escaped("\(path): \(message)") }
}
