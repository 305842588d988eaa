/// Why a file could not be read as a recording.
public struct RecordingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Reason: String, Sendable, Hashable {
        /// The file could not be opened or read.
        case unreadable
        /// The file is none of the recording kinds Parley reads.
        case notARecording = "not-a-recording"
        /// The file is of a known kind but broken (invalid JSON, a cassette without interactions).
        case malformed
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
