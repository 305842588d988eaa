public import Parley

/// What a report shows of one exchange beyond its findings: the header fields, the body the
/// format saw, what it decoded to, what a mislabelled body really is, and the snapshot a
/// mismatch was found against.
///
/// ``ExchangeChecker`` fills ``ExchangeResult/detail`` only when
/// ``CheckOptions/keepsDetails`` is set (the HTML report sets it); it keeps at most
/// ``CheckOptions/maxDetailBodyBytes`` of the body and a ``ValuePreview`` of the decoded value
/// (within ``CheckOptions/previewLimits``), never the whole value, so memory stays bounded by
/// those limits while a reporter renders the file.
public struct ExchangeDetail: Sendable {
    /// The request's header fields as recorded.
    public var requestFields: RecordedFields
    /// The response's header fields as recorded.
    public var responseFields: RecordedFields
    /// The response's reason phrase as recorded, possibly empty.
    public var reason: String
    /// The body after any `Content-Encoding` was undone (what the format saw), cut to
    /// ``CheckOptions/maxDetailBodyBytes``.
    public var body: [UInt8]
    /// The size of that body before it was cut, in bytes.
    public var bodyByteCount: Int
    /// What the report shows of the decoded value, when the body decoded (also for an
    /// unacceptable status): cut to ``CheckOptions/previewLimits``, with the real counts.
    public var preview: ValuePreview?
    /// What the bytes really look like when the pipeline found the body mislabelled:
    /// `Registry.mislabelling(of:labelledAs:)`, the function the pipeline's sniffing step asks.
    public var sniffedType: MediaType?
    /// The snapshot the value was compared with, when it differed.
    public var snapshot: SnapshotDifference?

    /// A detail from its parts (the checker makes these; tests make them to feed reporters).
    package init(requestFields: RecordedFields, responseFields: RecordedFields, reason: String, body: [UInt8],
                 bodyByteCount: Int, preview: ValuePreview? = nil, sniffedType: MediaType? = nil,
                 snapshot: SnapshotDifference? = nil) {
        self.requestFields = requestFields
        self.responseFields = responseFields
        self.reason = reason
        self.body = body
        self.bodyByteCount = bodyByteCount
        self.preview = preview
        self.sniffedType = sniffedType
        self.snapshot = snapshot
    }

    /// Whether ``body`` holds the whole body.
    public var hasWholeBody: Bool { body.count == bodyByteCount }
}

/// A decoded value's differences from its pinned snapshot, for a report to show side by side.
public struct SnapshotDifference: Sendable {
    /// The pinned value, cut to ``CheckOptions/previewLimits`` as the actual one is.
    public var expected: ValuePreview
    /// How it was compared.
    public var match: Snapshot.Match
    /// The paths that differ (`$.user.id`, `$.tags[1]`), as in the finding's message but not
    /// escaped for a terminal.
    public var paths: [String]
}
