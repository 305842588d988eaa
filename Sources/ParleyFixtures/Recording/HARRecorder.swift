public import FoundationEssentials
import HTTPTypes
public import Parley
import ParleyJSON

/// Writes HTTP exchanges as HAR 1.2 files that `parley check` reads and ``Replayer`` replays:
/// what `parley-gateway --record DIR` writes.
///
/// ```swift
/// let recorder = try HARRecorder(directory: "recordings", registry: .linked,
///                                options: RecordingOptions(redactedPaths: ["user.password"]))
/// try recorder.record(CapturedExchange(request: request, response: response, responseBody: body,
///                                      startedAt: start, totalMilliseconds: 8.2))
/// try recorder.flush()   // now and then: closes a file that reached its age
/// try recorder.close()   // on shutdown
/// ```
///
/// **Files.** Entries are appended to the open file as they are recorded, so memory does not
/// grow with the file. A file is written as `PREFIX-20261125T181700Z-0001.har.partial` (UTC
/// time of its first entry, then a sequence number) and renamed to `….har` when it is closed:
/// when it holds ``RecordingOptions/maxExchangesPerFile`` entries, when a ``record(_:)`` or
/// ``flush()`` finds it open for ``RecordingOptions/maxFileAge``, or on ``close()``. Names sort
/// by time; a name already taken (another recorder in the same folder) is skipped, never
/// replaced. `parley check` passes `.partial` files over.
///
/// **Bodies.** A body in a content coding of ``RecordingOptions/contentCodings`` is stored
/// decoded when its decoded form fits ``RecordingOptions/maxRecordedBodyBytes``, as HAR 1.2
/// stores `content.text` (`bodySize` counts the bytes received, `content.compression` the bytes
/// saved); the `Content-Encoding` field stays as received, which the checker notes as
/// `stored-decoded` and replay drops. Otherwise the body is stored as received, base64. Text
/// that is valid UTF-8 is stored as text, anything else base64 (`"encoding": "base64"`). A body
/// over the cap is cut to it, with an entry `comment` saying so.
///
/// **Redaction.** The values of ``RecordingOptions/defaultRedactedHeaders`` and
/// ``RecordingOptions/redactedHeaders`` are replaced with ``RecordingOptions/replacement``; HAR
/// `cookies` lists are left empty. With ``RecordingOptions/redactedPaths``, a body whose
/// `Content-Type` a format of `registry` decodes and encodes is decoded, the values the paths name
/// replaced, and re-encoded by that format (a body where no path matches is kept byte for byte);
/// a body no format can read is kept as it is and the entry comment says it was not redacted.
///
/// A recorder is `Sendable`: call it from any number of tasks. Bodies are prepared and entries
/// encoded outside its lock; only the write to the open file is serialized.
public final class HARRecorder: @unchecked Sendable {
    /// The folder written to.
    public let directory: String
    /// The options in force.
    public let options: RecordingOptions

    private struct State {
        var file: HARFile?
        var sequence = 0
        var recordedCount = 0
    }

    private let bodies: BodyRecorder
    private let redactedHeaders: Set<String>
    private let redactedQuery: QueryRedaction
    private let now: @Sendable () -> Date
    private let lock = Lock()
    private var unsafeState = State()
    private let json = JSONFormat()

    /// Creates a recorder writing into `directory`, created (with its parents) if missing.
    ///
    /// - Parameters:
    ///   - directory: The folder the files go in.
    ///   - registry: The formats that decode and re-encode bodies for path redaction.
    ///   - options: Rotation, redaction and body limits.
    ///   - now: The clock used for file names and ages; tests pass their own.
    /// - Throws: ``RecordingError`` with ``RecordingError/Reason/unwritable`` when the folder
    ///   cannot be created or is not writable, ``RecordingError/Reason/invalidOptions`` for an
    ///   option out of range or a redaction path that does not parse.
    public init(directory: String, registry: Registry, options: RecordingOptions = RecordingOptions(),
                now: @escaping @Sendable () -> Date = { Date() }) throws(RecordingError) {
        let paths = try options.validated(directory: directory)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw RecordingError(.unwritable, path: directory, "cannot create the folder (\(systemErrorText(error)))")
        }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory else {
            throw RecordingError(.unwritable, path: directory, "not a folder")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw RecordingError(.unwritable, path: directory, "the folder is not writable")
        }
        self.directory = directory
        self.options = options
        self.bodies = BodyRecorder(registry: registry, paths: paths, options: options)
        self.redactedHeaders = options.allRedactedHeaders
        self.redactedQuery = QueryRedaction(parameters: options.redactedQueryParameters,
                                            replacement: options.replacement)
        self.now = now
    }

    deinit {
        try? close()
    }

    /// Records one exchange: prepares its bodies, appends its entry to the open file (opening
    /// one if none is), and closes the file when it is full or old enough.
    ///
    /// - Throws: ``RecordingError`` (``RecordingError/Reason/unwritable``) when a file cannot be
    ///   created, written or renamed; the file being written is then left as `.partial` and the
    ///   next call starts a new one.
    public func record(_ exchange: CapturedExchange) throws(RecordingError) {
        let requestBody = bodies.prepare(exchange.requestBody, totalCount: exchange.requestBodyByteCount,
                                         fields: exchange.request.headerFields, label: "request body")
        let responseBody = bodies.prepare(exchange.responseBody, totalCount: exchange.responseBodyByteCount,
                                          fields: exchange.response.headerFields, label: "response body")
        let entry = HAREntry(exchange: exchange, requestBody: requestBody, responseBody: responseBody,
                             redactedHeaders: redactedHeaders,
                             redactedQuery: redactedQuery,
                             replacement: options.replacement)
        let bytes: [UInt8]
        do {
            bytes = try json.encode(entry.value)
        } catch {
            // Every value in an entry is a string, a finite number or a container of them.
            throw RecordingError(.unwritable, path: directory, "cannot encode an entry (\(error))")
        }
        try withState { state throws(RecordingError) in
            let time = now()
            try closeIfDue(&state, at: time)
            if state.file == nil {
                state.file = try HARFile(directory: directory, prefix: options.fileNamePrefix, openedAt: time,
                                         sequence: &state.sequence)
            }
            do throws(RecordingError) {
                try state.file!.append(bytes)
            } catch {
                state.file?.abandon()
                state.file = nil
                throw error
            }
            state.recordedCount += 1
            if state.file!.entryCount >= options.maxExchangesPerFile { try finish(&state) }
        }
    }

    /// Closes the open file if it is full or has been open for ``RecordingOptions/maxFileAge``.
    /// Call it now and then (every second or so), so a quiet recorder's file does not stay
    /// `.partial`.
    public func flush() throws(RecordingError) {
        try withState { state throws(RecordingError) in try closeIfDue(&state, at: now()) }
    }

    /// Closes the open file now, if any. Recording afterwards starts a new file.
    public func close() throws(RecordingError) {
        try withState { state throws(RecordingError) in try finish(&state) }
    }

    /// How many exchanges were written.
    public var recordedCount: Int {
        withState { $0.recordedCount }
    }

    /// Runs `body` on the state under the lock.
    private func withState<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
        try lock.withLock { () throws(E) -> R in try body(&unsafeState) }
    }

    private func closeIfDue(_ state: inout State, at time: Date) throws(RecordingError) {
        guard let file = state.file else { return }
        let age = time.timeIntervalSince(file.openedAt)
        let components = options.maxFileAge.components
        let limit = Double(components.seconds) + Double(components.attoseconds) * 1e-18
        if age >= limit || file.entryCount >= options.maxExchangesPerFile { try finish(&state) }
    }

    private func finish(_ state: inout State) throws(RecordingError) {
        guard let file = state.file else { return }
        state.file = nil
        _ = try file.finish()
    }
}
