internal import CParleyImageShims
import Parley

/// Turns a shim's status code and message into a `FormatError`.
enum ShimStatus {
    /// Calls `body` with a message buffer and throws when it returns a status other than OK.
    ///
    /// - Parameters:
    ///   - limit: The limit a `PARLEY_IMAGE_LIMIT` status means (name and maximum).
    ///   - budget: The budget a `PARLEY_IMAGE_MEMORY_LIMIT` status means (`maxDecompressedBytes`).
    static func check(_ kind: ImageKind, limit: (name: String, maximum: Int)? = nil, budget: ImageBudget? = nil,
                      _ body: (UnsafeMutablePointer<CChar>) -> Int32) throws {
        var message = [CChar](repeating: 0, count: Int(PARLEY_IMAGE_MESSAGE_SIZE))
        let status = message.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
        guard status != Int32(PARLEY_IMAGE_OK) else { return }
        let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let detail = text.isEmpty ? "the \(kind.name) decoder failed" : text
        switch status {
        case Int32(PARLEY_IMAGE_LIMIT):
            throw FormatError(.limitExceeded, format: kind.name, detail,
                              limit: limit.map { FormatError.Limit(name: $0.name, maximum: $0.maximum) })
        case Int32(PARLEY_IMAGE_MEMORY_LIMIT):
            throw FormatError(
                .limitExceeded, format: kind.name, detail,
                limit: budget.map { FormatError.Limit(name: "maxDecompressedBytes", maximum: $0.maximum) })
        case Int32(PARLEY_IMAGE_TRUNCATED):
            throw FormatError(.truncated, format: kind.name, detail)
        default:
            throw FormatError(.malformed, format: kind.name, detail)
        }
    }
}
