import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the system said about a failed file operation, for messages: the C library's text for
/// the underlying `errno`, or the error's own description when it carries none.
func systemErrorText(_ error: any Error) -> String {
    let posix = (error as? CocoaError)?.userInfo["NSUnderlyingError"] as? POSIXError ?? error as? POSIXError
    guard let posix else { return String(describing: error) }
    return systemErrorText(posix.code.rawValue)
}

/// The C library's text for the `errno` value `code` (`No such file or directory`).
package func systemErrorText(_ code: Int32) -> String {
    strerror(code).map { String(cString: $0) } ?? "error \(code)"
}
