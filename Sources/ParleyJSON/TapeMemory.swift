#if canImport(Glibc)
import Glibc
#endif

/// Memory for a tape's large buffers (its copy of the input and its entries).
///
/// Buffers of 16 MiB and more are aligned to 2 MiB and, on Linux, offered to the kernel as
/// transparent huge pages (`madvise(MADV_HUGEPAGE)`, honoured where the system's setting is
/// `madvise` or `always`): measured on the benchmark suite's 20 MB API document, five decodes
/// and walks in one process take 13,451 minor page faults with the advice and 81,747 without
/// (about 13,700 fewer per decode); the wall-clock gain was within the noise of the loaded
/// machine it was measured on. Kept because it is advice only and cannot fail a decode.
enum TapeMemory {
    private static let hugePageBytes = 2 << 20

    /// `bytes` of uninitialised memory, to be given back through ``release(_:)``.
    ///
    /// The huge-page path is an optimisation only: when the aligned allocation fails the buffer
    /// comes from plain `malloc`, and `madvise`'s answer is ignored. Only when `malloc` itself
    /// fails (the process is out of memory, as for any Swift array) does this trap.
    static func allocate(bytes: Int) -> UnsafeMutableRawPointer {
        if bytes >= 8 * hugePageBytes {
            var aligned: UnsafeMutableRawPointer?
            if posix_memalign(&aligned, hugePageBytes, bytes) == 0, let aligned {
                #if os(Linux)
                _ = madvise(aligned, bytes, MADV_HUGEPAGE) // advice only: a refusal changes nothing
                #endif
                return aligned
            }
        }
        guard let memory = malloc(max(bytes, 1)) else { fatalError("JSON tape: out of memory for \(bytes) bytes") }
        return memory
    }

    static func release(_ memory: UnsafeMutableRawPointer) {
        free(memory)
    }
}
