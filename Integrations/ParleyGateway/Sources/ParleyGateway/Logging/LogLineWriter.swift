import Dispatch
import Foundation
import NIOConcurrencyHelpers

/// Writes log lines to a file descriptor from a thread of its own, so that a slow reader (a log
/// shipper that falls behind, a pipe nobody drains) never blocks the thread that logs.
///
/// ``submit(_:)`` only appends to a bounded buffer and returns; when the buffer already holds
/// ``capacity`` bytes, the line is dropped and counted in ``droppedLines`` (the gateway exposes
/// that count as `parley_gateway_log_lines_dropped_total`). The thread writes what has queued at
/// most every 5 ms, so a busy gateway wakes it once per batch, not once per line.
public final class LogLineWriter: Sendable {
    /// Where the lines go.
    public enum Destination: Sendable, Equatable {
        /// The process's standard error.
        case standardError
        /// A file, created when missing and appended to.
        case file(String)
    }

    private struct State {
        /// The lines waiting, each with its newline. The writer thread swaps it for the buffer it
        /// has written, emptied: both keep their storage, so queueing a line allocates nothing.
        var pending: [UInt8] = []
        var dropped = 0
        var closed = false
    }

    /// The most bytes of lines waiting to be written; lines past it are dropped.
    public let capacity: Int
    /// How long the writer thread lets lines gather after a write before it takes the next ones.
    static let batchInterval: TimeInterval = 0.005
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let state = NIOLockedValueBox(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Opens `destination` and starts the writer thread.
    ///
    /// - Parameters:
    ///   - destination: Standard error, or a file the lines are appended to.
    ///   - capacity: The most bytes of lines waiting to be written. Default 1 MiB.
    /// - Throws: ``GatewayConfigurationError`` when the file cannot be opened for appending.
    public convenience init(_ destination: Destination, capacity: Int = 1 << 20) throws(GatewayConfigurationError) {
        switch destination {
        case .standardError:
            self.init(descriptor: STDERR_FILENO, ownsDescriptor: false, capacity: capacity)
        case .file(let path):
            let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                throw GatewayConfigurationError("cannot open '\(path)' for the log: \(reason)")
            }
            self.init(descriptor: descriptor, ownsDescriptor: true, capacity: capacity)
        }
    }

    /// Writes to an open file descriptor (a pipe in tests), which it closes on ``close(waitingAtMost:)`` when
    /// `ownsDescriptor`.
    public init(descriptor: Int32, ownsDescriptor: Bool, capacity: Int = 1 << 20) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.capacity = max(capacity, 1)
        let thread = Thread { [self] in drain() }
        thread.name = "parley-log-writer"
        thread.start()
    }

    /// Queues `line` (a newline is added), or drops it when the buffer is full. Never blocks on I/O.
    public func submit(_ line: String) { submit(utf8: line.utf8) }

    /// ``submit(_:)`` with the line as its UTF-8 bytes (a buffer the caller reuses: no string is made).
    public func submit(utf8 line: some Collection<UInt8>) {
        let queued = state.withLockedValue { (state: inout State) -> Bool in
            let size = line.count + 1
            guard !state.closed, state.pending.count + size <= capacity else {
                if !state.closed { state.dropped += 1 }
                return false
            }
            // Lines queued before this one have woken the writer already.
            let first = state.pending.isEmpty
            state.pending.append(contentsOf: line)
            state.pending.append(UInt8(ascii: "\n"))
            return first
        }
        if queued { wake.signal() }
    }

    /// Lines dropped so far because the buffer was full.
    public var droppedLines: Int { state.withLockedValue { $0.dropped } }

    /// Stops taking lines; the writer thread writes what is queued and ends (closing the file it
    /// opened). Waits at most `timeout` for that: a descriptor nobody reads cannot hold the caller.
    public func close(waitingAtMost timeout: Duration = .seconds(1)) {
        state.withLockedValue { $0.closed = true }
        wake.signal()
        _ = finished.wait(timeout: .now() + .nanoseconds(Int(timeout.nanoseconds)))
    }

    /// The writer thread: waits for lines, takes all that are queued, writes them.
    private func drain() {
        var batch: [UInt8] = []
        while true {
            wake.wait()
            let closed = state.withLockedValue { state in
                swap(&batch, &state.pending)
                return state.closed
            }
            let wrote = !batch.isEmpty
            if wrote {
                writeAll(batch)
                batch.removeAll(keepingCapacity: true)
            }
            if closed { break }
            if wrote { Thread.sleep(forTimeInterval: Self.batchInterval) }
        }
        if ownsDescriptor { closeDescriptor(descriptor) }
        finished.signal()
    }

    /// Writes every byte, going on after partial writes and interruptions; gives up on errors.
    private func writeAll(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}

/// Closes a file descriptor (outside the class, whose `close` is another function).
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
