/// The bytes a streaming codec produces, appended from one bounded scratch buffer and never
/// past a limit: the codec is offered at most one byte more than the limit leaves, so going over
/// is seen as soon as it happens, not after a whole chunk.
struct CodecOutput {
    /// The scratch buffer's size: the most one codec step writes.
    static let chunkSize = 64 << 10

    /// The bytes so far.
    var bytes: [UInt8] = []
    /// The most bytes `bytes` may hold.
    let maximumBytes: Int

    init(maximumBytes: Int = .max, expected: Int) {
        self.maximumBytes = max(0, maximumBytes)
        bytes.reserveCapacity(min(self.maximumBytes, max(expected, 0)))
    }

    /// How many bytes to let the codec write next: a chunk, or one past what the limit leaves.
    var room: Int {
        let left = maximumBytes - bytes.count
        return left >= Self.chunkSize ? Self.chunkSize : left + 1
    }

    /// Appends what the codec wrote to `scratch`; `false` when that goes over the limit.
    mutating func append(_ scratch: UnsafeMutableBufferPointer<UInt8>, count: Int) -> Bool {
        guard count <= maximumBytes - bytes.count else { return false }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<count]))
        return true
    }

    /// Runs `body` with a scratch buffer of ``chunkSize`` bytes.
    static func withScratch<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunkSize, body)
    }
}
