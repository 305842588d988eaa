import NIOConcurrencyHelpers

/// Whether recording is failing, so a run of failed writes (a full disk, a removed folder)
/// logs one error, not one per exchange, and a recovery is logged once too.
final class RecordingHealth: Sendable {
    private let failing = NIOLockedValueBox(false)

    /// Notes a failed write; whether it is the first of a run.
    func failed() -> Bool {
        failing.withLockedValue { failing in
            defer { failing = true }
            return !failing
        }
    }

    /// Notes a successful write; whether it ends a run of failures.
    func succeeded() -> Bool {
        failing.withLockedValue { failing in
            defer { failing = false }
            return failing
        }
    }
}
