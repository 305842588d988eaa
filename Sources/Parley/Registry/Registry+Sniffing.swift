extension Registry {
    /// What a body looks like, and the format that recognised it.
    public struct Sniffed: Sendable {
        /// The media type the bytes look like.
        public let mediaType: MediaType
        /// The format whose ``Format/sniff(_:)`` recognised them.
        public let format: any Format
    }

    /// Whether any content may carry `label` without being mislabelled: bytes of unknown kind
    /// (`application/octet-stream`, RFC 9110 §8.3) and text (`text/plain`, `text/css`,
    /// `text/event-stream`, every `text/*` type whose content has no shape to recognise), except
    /// `text/html`, whose pages do, and the structured `text/*` aliases a format registers exactly
    /// (`text/xml`, `text/yaml`, `text/json`).
    public func isGenericLabel(_ label: MediaType) -> Bool {
        isGenericLabel(label, rank: table.match(label)?.rank)
    }

    /// ``isGenericLabel(_:)`` with how `label` matches a registered type, asked for only when
    /// needed (a `text/*` label).
    private func isGenericLabel(_ label: MediaType, rank: @autoclosure () -> MatchRank?) -> Bool {
        // Type and subtype compared apart: `essence` makes a string for every response.
        let octetStream = MediaType.applicationOctetStream
        if label.type == octetStream.type, label.subtype == octetStream.subtype { return true }
        guard label.type == "text", label.subtype != "html" else { return false }
        return label.subtype == "plain" || (rank() ?? .anyType) < .suffixBaseType
    }

    /// What `body` looks like, asking each format in registration order; `nil` when none can tell.
    public func sniff(_ body: some Sequence<UInt8>) -> Sniffed? {
        withContiguousBytes(of: body) { bytes in sniff(bytes, skipping: nil) }
    }

    /// The media type a body labelled `label` really looks like, when that contradicts the label
    /// (an HTML page labelled `application/json`, a JPEG labelled `image/png`); `nil` when the
    /// body fits its label, when nothing recognises it, or when the label is generic
    /// (``isGenericLabel(_:)``).
    ///
    /// The label's own format judges first: when it recognises the body, the body fits unless
    /// that format says the two types are different kinds (``Format/contradicts(label:sniffed:)``).
    /// Otherwise the first other format that recognises the body names what it is.
    @inlinable
    public func mislabelling(of body: some Sequence<UInt8>, labelledAs label: MediaType) -> Sniffed? {
        withContiguousBytes(of: body) { mislabelling(ofBytes: $0, labelledAs: label) }
    }

    /// ``mislabelling(of:labelledAs:)`` of contiguous bytes: the work, not generic, so a caller
    /// in another module calls it directly rather than through a generic entry point.
    @usableFromInline
    func mislabelling(ofBytes bytes: UnsafeRawBufferPointer, labelledAs label: MediaType) -> Sniffed? {
        let match = table.match(label)
        return mislabelling(ofBytes: bytes, labelledAs: label, labelFormat: match?.owner, rank: match?.rank)
    }

    /// ``mislabelling(of:labelledAs:)`` of a body whose label was matched already, to `match`:
    /// the response pipeline's, which looks the label up once for both.
    package func mislabelling(of body: [UInt8], labelledAs label: MediaType, decodedBy match: DecoderMatch) -> Sniffed? {
        body.withUnsafeBytes { bytes in
            mislabelling(ofBytes: bytes, labelledAs: label, labelFormat: match.formatIndex, rank: match.rank)
        }
    }

    /// The work of ``mislabelling(of:labelledAs:)``, given the index of the format `label`
    /// matches (if any) and how it matched.
    private func mislabelling(ofBytes bytes: UnsafeRawBufferPointer, labelledAs label: MediaType,
                              labelFormat: Int?, rank: MatchRank?) -> Sniffed? {
        if isGenericLabel(label, rank: rank) { return nil }
        if let labelFormat, let own = formats[labelFormat].sniff(bytes) {
            return formats[labelFormat].contradicts(label: label, sniffed: own)
                ? Sniffed(mediaType: own, format: formats[labelFormat]) : nil
        }
        return sniff(bytes, skipping: labelFormat)
    }

    private func sniff(_ bytes: UnsafeRawBufferPointer, skipping skipped: Int?) -> Sniffed? {
        for (index, format) in formats.enumerated() where index != skipped {
            if let type = format.sniff(bytes) { return Sniffed(mediaType: type, format: format) }
        }
        return nil
    }
}
