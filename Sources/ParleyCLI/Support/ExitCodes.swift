public import ArgumentParser

extension ExitCode {
    /// 1: the input was checked and failed (a decode error, a failing fixture).
    public static let checkFailed = ExitCode(1)
    /// 2: a usage error or unreadable input.
    public static let usage = ExitCode(2)
    /// 3: nothing acceptable or no decoder (406/415 in HTTP terms).
    public static let notAcceptable = ExitCode(3)
}
