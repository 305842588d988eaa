import FuzzSupport
@_spi(Testing) import ParleySchema

/// Tight limits, so a hostile pattern meets a limit well inside the fuzzer's time bound.
let limits = ECMAPattern.Limits(maxProgramSize: 10_000, maxSteps: 2_000_000, maxBacktrackingSteps: 200_000)

/// The first byte's low bit is the `u` flag; the rest is the pattern, a NUL byte, then the text.
/// Compiling may only fail with a PatternError; matching only with `.budgetExceeded`; and the
/// linear engine and the backtracking one must agree whenever neither runs out of budget.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let parts = fuzzParts(UnsafeRawBufferPointer(start: start, count: count)) else { return 0 }
    let source = String(decoding: parts.first, as: UTF8.self)
    let text = String(decoding: parts.second, as: UTF8.self)
    let pattern: ECMAPattern
    do {
        pattern = try ECMAPattern(source, unicode: parts.flags & 1 == 1, limits: limits)
    } catch {
        if error.code != .syntax && error.code != .unsupported && error.code != .budgetExceeded {
            fatalError("unexpected error code \(error)")
        }
        return 0
    }
    let linear: Bool?
    do {
        linear = try pattern.matches(text)
    } catch {
        if error.code != .budgetExceeded { fatalError("matching failed with \(error)") }
        linear = nil
    }
    do {
        let backtracked = try pattern.matchesByBacktracking(text)
        if let linear, linear != backtracked {
            fatalError("engines disagree on /\(source)/ against \(text.debugDescription): \(linear) vs \(backtracked)")
        }
    } catch {
        if error.code != .budgetExceeded { fatalError("backtracking failed with \(error)") }
    }
    return 0
}
