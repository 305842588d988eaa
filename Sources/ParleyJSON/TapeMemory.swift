#if canImport(Glibc)
import Glibc
#endif

/// Memory for a tape's large buffers (its copy of the input and its entries).
///
/// Buffers of 16 MiB and more are aligned to 2 MiB and, on Linux, offered to the kernel as
/// transparent huge pages (`madvise(MADV_HUGEPAGE)`, honoured where the system's setting is
/// `madvise` or `always`): a 20 MB document's tape then takes a few dozen page faults instead
/// of about 13,000, which cost close to a third of its decoding time.
enum TapeMemory {
    private static let hugePageBytes = 2 << 20

    /// `bytes` of uninitialised memory, to be given back through ``release(_:)``.
    static func allocate(bytes: Int) -> UnsafeMutableRawPointer {
        var memory: UnsafeMutableRawPointer?
        if bytes >= 8 * hugePageBytes {
            if posix_memalign(&memory, hugePageBytes, bytes) == 0, let memory {
                #if os(Linux)
                _ = madvise(memory, bytes, MADV_HUGEPAGE) // advice only: a refusal changes nothing
                #endif
            }
        } else {
            memory = malloc(max(bytes, 1))
        }
        guard let memory else { fatalError("JSON tape: out of memory for \(bytes) bytes") }
        return memory
    }

    static func release(_ memory: UnsafeMutableRawPointer) {
        free(memory)
    }
}
