/// The outcome of checking one recording file.
public struct RecordingCheck: Sendable {
    /// The file.
    public var path: String
    /// Its kind, when it could be read.
    public var kind: RecordingKind?
    /// The file size in bytes.
    public var byteCount: Int
    /// One result per exchange, in recorded order.
    public var exchanges: [ExchangeResult]
    /// Why the file could not be read, if it could not.
    public var readError: RecordingError?
    /// Whether the file was passed over as not a recording (only in folder walks).
    public var isSkipped: Bool
    /// Whether a snapshot sidecar was written for it.
    public var wroteSnapshot: Bool = false

    /// A check's outcome from its parts (the checker makes these; tests make them to feed reporters).
    package init(path: String, kind: RecordingKind? = nil, byteCount: Int, exchanges: [ExchangeResult],
                 readError: RecordingError? = nil, isSkipped: Bool, wroteSnapshot: Bool = false) {
        self.path = path
        self.kind = kind
        self.byteCount = byteCount
        self.exchanges = exchanges
        self.readError = readError
        self.isSkipped = isSkipped
        self.wroteSnapshot = wroteSnapshot
    }

    /// Whether the file fails the check.
    public func fails(strict: Bool) -> Bool {
        (readError != nil && !isSkipped) || exchanges.contains { $0.fails(strict: strict) }
    }
}
