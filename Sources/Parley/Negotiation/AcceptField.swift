public import HTTPTypes

/// A request's `Accept` field, scanned once: its valid media ranges with their q-values, ready
/// to be negotiated against any number of offer lists without reading the text again.
///
/// ```swift
/// let accept = AcceptField(request.headerFields)
/// let type = registry.encoder(for: accept)                          // one negotiation
/// let index = AcceptNegotiator(offers: fallbacks).preferredOfferIndex(for: accept)   // no re-scan
/// ```
///
/// The rules are those of ``AcceptNegotiator``: no field, or only empty elements, accepts
/// everything; invalid elements are skipped; a field whose elements are all invalid is
/// ``isMalformed`` and accepts nothing (a server answers 400). Scanning is linear in the
/// field's length.
public struct AcceptField: Sendable, Equatable {
    /// The field value as received (several fields joined with `, `), or `nil` when the
    /// request had none.
    public let fieldValue: String?
    /// The valid elements, in field order; their ranges index ``bytes``.
    let ranges: [AcceptScanner.Element]
    /// The field's UTF-8 bytes, which ``ranges`` index.
    let bytes: [UInt8]
    /// Whether the field has elements and not one of them is a valid media range (RFC 9110
    /// §12.5.1): it cannot mean anything, so nothing is acceptable and a server answers 400.
    public let isMalformed: Bool

    /// Scans `fieldValue`, the `Accept` field value (several fields joined with `, `), or `nil`
    /// when the request had none.
    public init(_ fieldValue: String?) {
        self.fieldValue = fieldValue
        let bytes = Array((fieldValue ?? "").utf8)
        var ranges: [AcceptScanner.Element] = []
        var sawElement = false
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = AcceptScanner(buffer)
            while let element = scanner.nextElement() {
                sawElement = true
                if element.isValid { ranges.append(element) }
            }
        }
        self.bytes = bytes
        self.ranges = ranges
        self.isMalformed = sawElement && ranges.isEmpty
    }

    /// Scans the `Accept` fields of `fields`, joined with `, `; `nil` fields mean none.
    public init(_ fields: HTTPFields) {
        let values = fields[values: .accept]
        self.init(values.isEmpty ? nil : values.joined(separator: ", "))
    }

    /// Whether every offer is acceptable: no field, or one of only empty elements.
    public var acceptsAnything: Bool { ranges.isEmpty && !isMalformed }

    /// The number of valid media ranges.
    public var mediaRangeCount: Int { ranges.count }

    /// The lowest non-zero q-value among the valid media ranges, or `nil` when none is above 0.
    ///
    /// A proxy that adds ranges of its own goes below this, so the client's preferences
    /// still come first (`text/html, application/xml;q=0.9` → 0.9).
    public var lowestQuality: Double? {
        ranges.lazy.map(\.quality).filter { $0 > 0 }.min()
    }

    public static func == (lhs: AcceptField, rhs: AcceptField) -> Bool {
        lhs.fieldValue == rhs.fieldValue
    }
}
