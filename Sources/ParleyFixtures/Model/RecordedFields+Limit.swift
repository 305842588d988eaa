extension RecordedFields {
    /// The most header fields a recorded message may carry to be checked or replayed: 10,000.
    ///
    /// `HTTPFields` holds at most 65,535 fields and traps past that; no real server sends more
    /// than a few hundred. A recorded response over this limit is a `limit-exceeded` finding in a
    /// check and a ``ReplayError`` in a replay.
    public static let maxCount = 10_000

    /// Whether there are more fields than ``maxCount``.
    public var exceedsMaxCount: Bool { fields.count > Self.maxCount }

    /// The finding's or error's sentence for fields over ``maxCount``.
    var overMaxCountMessage: String {
        "the response has \(fields.count) header fields, more than the limit of \(Self.maxCount)"
    }
}
