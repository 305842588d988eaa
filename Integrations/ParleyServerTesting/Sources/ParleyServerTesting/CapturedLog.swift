public import Logging
import NIOConcurrencyHelpers

/// A log handler that keeps the messages at its level and above for a test to read, such as
/// the violations a contract middleware in `report` mode logs.
public final class CapturedLog: LogHandler, Sendable {
    private let captured = NIOLockedValueBox<[String]>([])
    private let settings = NIOLockedValueBox<(metadata: Logger.Metadata, level: Logger.Level)>(([:], .error))

    /// Creates a handler keeping messages at `level` and above (`error` by default).
    public init(level: Logger.Level = .error) {
        settings.withLockedValue { $0.level = level }
    }

    /// The messages logged so far, oldest first.
    public var messages: [String] { captured.withLockedValue { $0 } }

    public var metadata: Logger.Metadata {
        get { settings.withLockedValue { $0.metadata } }
        set { settings.withLockedValue { $0.metadata = newValue } }
    }

    public var logLevel: Logger.Level {
        get { settings.withLockedValue { $0.level } }
        set { settings.withLockedValue { $0.level = newValue } }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        captured.withLockedValue { $0.append(event.message.description) }
    }
}
