import Parley
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A pass over the raw document before libxml2 parses it, bounding the work libxml2 2.9 does in
/// time that grows with the square of a count: it compares each attribute of a start tag with
/// every one before it (to find duplicates), and looks every element's and attribute's namespace
/// up through all the declarations in scope. Without this pass, a megabyte of attributes on one
/// element, or deeply nested declarations over many prefixed children, hold libxml2 for tens of
/// seconds (the linearity gate's XML workloads keep the figures).
///
/// The work is counted as comparisons: a start tag with *k* attributes (namespace declarations
/// included) costs *k*(*k* − 1)/2 once *k* passes 64, and, while more than 64 declarations are in
/// scope, each start tag costs that number times (1 + *k*). Tags below both thresholds cost
/// nothing (their work is linear in their size). A document may spend ``maxComparisons``: one
/// element of as many attributes as that budget allows fits, a body of many such elements does not.
///
/// The scan finds start tags by `<` and a name character, skips comments, CDATA sections and
/// processing instructions, counts `=` outside quoted values as attributes and names starting
/// with `xmlns` as declarations, and follows nesting by end tags and `/>` (only in documents with
/// more than 64 declarations; others need just their long tags read). It reads UTF-8 and other
/// ASCII-compatible text directly, UTF-16 and UTF-32 through their ASCII characters; it only
/// ever refuses (well-formedness is libxml2's to judge). EBCDIC documents are not scanned.
enum MarkupScan {
    /// The comparisons libxml2 may spend on one document's attributes and namespace lookups.
    static let maxComparisons = 250_000_000
    /// The attributes on one tag, and the declarations in scope, below which nothing is counted.
    static let freeCount = 64

    /// Throws `FormatError/Code/limitExceeded` (limit `"attribute comparisons"`) when the
    /// document's attributes and namespace declarations would cost libxml2 more than
    /// ``maxComparisons``.
    static func check(_ bytes: UnsafeRawBufferPointer, charset: String?) throws(FormatError) {
        let units = bytes.bindMemory(to: UInt8.self)
        guard let (width, bigEndian) = wideEncoding(units, charset: charset) else {
            return try scan(units)
        }
        // The ASCII characters of the wide text, anything else as 0x80 (which the scan skips).
        let count = units.count / width
        let ascii = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            for i in 0..<count {
                var value: UInt32 = 0
                for k in 0..<width {
                    let byte = UInt32(units[i * width + (bigEndian ? k : width - 1 - k)])
                    value = value << 8 | byte
                }
                buffer[i] = value < 0x80 ? UInt8(value) : 0x80
            }
            initialized = count
        }
        try ascii.withUnsafeBufferPointer { (buffer) throws(FormatError) in try scan(buffer) }
    }

    /// The code unit width (2 or 4) and byte order of UTF-16 or UTF-32 text, by byte-order mark,
    /// the first characters (XML 1.0 appendix F) or the charset; `nil` for ASCII-compatible text.
    static func wideEncoding(_ b: UnsafeBufferPointer<UInt8>, charset: String?) -> (Int, Bool)? {
        if b.count >= 4 {
            switch (b[0], b[1], b[2], b[3]) {
            case (0x00, 0x00, 0xFE, 0xFF), (0x00, 0x00, 0x00, 0x3C): return (4, true)
            case (0xFF, 0xFE, 0x00, 0x00), (0x3C, 0x00, 0x00, 0x00): return (4, false)
            default: break
            }
        }
        if b.count >= 2 {
            switch (b[0], b[1]) {
            case (0xFE, 0xFF): return (2, true)
            case (0xFF, 0xFE): return (2, false)
            case (0x00, 0x3C): return (2, true)
            case (0x3C, 0x00): return (2, false)
            default: break
            }
        }
        guard let name = charset?.lowercased(), b.count >= 2 else { return nil }
        let bigEndian = b[0] == 0
        if name.hasPrefix("utf-16") || name.hasPrefix("ucs-2") { return (2, bigEndian) }
        if name.hasPrefix("utf-32") || name.hasPrefix("ucs-4") { return (4, bigEndian) }
        return nil
    }

    /// Checks the start tags: a document with at most `freeCount` declarations can never spend
    /// anything on namespace lookups, so only its long tags are read (``scanLongTags(_:)``);
    /// others are followed tag by tag (``scanStructure(_:)``).
    private static func scan(_ b: UnsafeBufferPointer<UInt8>) throws(FormatError) {
        guard b.baseAddress != nil else { return }
        if hasMoreDeclarations(than: freeCount, in: b) {
            try scanStructure(b)
        } else {
            try scanLongTags(b)
        }
    }

    /// Reads only the tags that could hold more than `freeCount` attributes: those with at least
    /// `5 × freeCount` units (`a=''` and a space per attribute) before the next '<' ('<' cannot
    /// occur in an attribute value). Finds each '<' with `memchr`, except where '<' are dense:
    /// from a tag, when a '<' lies among the last `probeLength` of the `5 × freeCount` units
    /// after it, and no comment, CDATA section, declaration or instruction starts on the way
    /// (``MarkupDeclarations``), the scan moves to that '<' at once. Every '<' it passes has
    /// another (that one, at the latest) fewer than `5 × freeCount` units after it, so none starts
    /// a long tag.
    ///
    /// The moves make one `memchr` call per span of about 200 units instead of one per '<': a
    /// `memchr` call for a few dozen bytes costs more cycles than its instructions suggest.
    private static func scanLongTags(_ b: UnsafeBufferPointer<UInt8>) throws(FormatError) {
        let base = b.baseAddress!
        let n = b.count
        let longTag = 5 * freeCount
        var comparisons = 0
        var last = -longTag  // the last '<' seen (none yet: no tag before the first)
        func check(_ tagStart: Int, next: Int) throws(FormatError) {
            guard tagStart >= 0, next - tagStart >= longTag, tagStart + 1 < n, isNameStart(b[tagStart + 1]) else {
                return
            }
            let tag = readStartTag(b, from: tagStart + 1)
            try spend(tag.attributes > freeCount ? tag.attributes * (tag.attributes - 1) / 2 : 0,
                      on: &comparisons, at: tagStart)
        }
        var declarations = MarkupDeclarations(b)
        // Where the tag-to-tag moves are tried again after one failed (once a span is past).
        var retryFrom = 0
        var i = 0
        while i < n {
            if last >= retryFrom {
                if let target = opening(in: b, after: last, before: min(last + longTag, n)),
                   declarations.first(atOrAfter: last + 1) > target + 1 {
                    last = target
                    i = target + 1
                    continue
                }
                retryFrom = last + longTag
            }
            // The next '<', or the end.
            let k = memchr(base + i, Int32(UInt8(ascii: "<")), n - i)
                .map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base } ?? n
            try check(last, next: k)
            guard k < n else { return }
            // Comments, CDATA sections and instructions are skipped whole: no tag is in them.
            // (The byte after '<' is read first: most '<' start a tag, and need no comparison.)
            let next = k + 1 < n ? b[k + 1] : 0
            if next == UInt8(ascii: "!") && b.matches("!--", at: k + 1) {
                i = end(of: "-->", in: b, from: k + 4)
            } else if next == UInt8(ascii: "!") && b.matches("![CDATA[", at: k + 1) {
                i = end(of: "]]>", in: b, from: k + 9)
            } else if next == UInt8(ascii: "?") {
                i = end(of: "?>", in: b, from: k + 2)
            } else {
                last = k
                i = k + 1
                continue
            }
            last = -longTag
        }
    }

    /// The units at the end of the span after a tag where the scan looks for a '<' to move to.
    static let probeLength = 5 * freeCount / 2

    /// The first '<' among the last `probeLength` units of `after + 1 ..< before`, if any.
    private static func opening(in b: UnsafeBufferPointer<UInt8>, after start: Int, before end: Int) -> Int? {
        let from = max(start + 1, end - probeLength)
        guard from < end, let hit = memchr(b.baseAddress! + from, Int32(UInt8(ascii: "<")), end - from) else {
            return nil
        }
        return UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - b.baseAddress!
    }

    /// Where comments, CDATA sections, declarations and processing instructions start: the '!'
    /// or '?' right after a '<', found in order with `memchr` as the scan asks (each is looked
    /// for once, however often the scan asks).
    private struct MarkupDeclarations {
        let b: UnsafeBufferPointer<UInt8>
        /// The first '!' after a '<' at or after `bangFrom` (`b.count` for none), and the same for '?'.
        var bang = 0
        var bangFrom = Int.max
        var question = 0
        var questionFrom = Int.max

        init(_ b: UnsafeBufferPointer<UInt8>) {
            self.b = b
        }

        /// The position of the first '!' or '?' right after a '<', at or after `start` (`b.count`
        /// for none).
        mutating func first(atOrAfter start: Int) -> Int {
            Self.find(UInt8(ascii: "!"), in: b, from: start, found: &bang, searchedFrom: &bangFrom)
            Self.find(UInt8(ascii: "?"), in: b, from: start, found: &question, searchedFrom: &questionFrom)
            return min(bang, question)
        }

        /// Sets `found` to the first `unit` right after a '<' at or after `start`, unless the last
        /// search (from `searchedFrom`, not after `start`) found one at or after `start` already.
        private static func find(_ unit: UInt8, in b: UnsafeBufferPointer<UInt8>, from start: Int,
                                 found: inout Int, searchedFrom: inout Int) {
            if searchedFrom <= start && found >= start { return }
            searchedFrom = start
            let base = b.baseAddress!
            var i = start
            while i < b.count, let hit = memchr(base + i, Int32(unit), b.count - i) {
                let position = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
                if position > 0 && b[position - 1] == UInt8(ascii: "<") {
                    found = position
                    return
                }
                i = position + 1
            }
            found = b.count
        }
    }

    /// Follows every tag, skipping comments, CDATA sections and processing instructions, with the
    /// namespace declarations of the open elements.
    private static func scanStructure(_ b: UnsafeBufferPointer<UInt8>) throws(FormatError) {
        let base = b.baseAddress!
        let n = b.count
        // The open elements that declare namespaces: their depth and how many they declare.
        var declarations: [(depth: Int, count: Int)] = []
        var depth = 0
        var inScope = 0
        var comparisons = 0
        var i = 0
        while i < n, let found = memchr(base + i, Int32(UInt8(ascii: "<")), n - i) {
            let tagStart = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
            i = tagStart + 1
            guard i < n else { return }
            switch b[i] {
            case UInt8(ascii: "!"):
                if b.matches("!--", at: i) {
                    i = end(of: "-->", in: b, from: i + 3)
                } else if b.matches("![CDATA[", at: i) {
                    i = end(of: "]]>", in: b, from: i + 8)
                }
                // A declaration (DOCTYPE, ENTITY …): its content is scanned like the rest.
            case UInt8(ascii: "?"):
                i = end(of: "?>", in: b, from: i + 1)
            case UInt8(ascii: "/"):
                if let last = declarations.last, last.depth == depth {
                    inScope -= last.count
                    declarations.removeLast()
                }
                depth -= 1
            case let first where isNameStart(first):
                let tag = readStartTag(b, from: i)
                i = tag.end
                let attributes = tag.attributes
                let namespaces = tag.namespaces
                // No overflow: both counts are below the body's length, at most Int32.max (SAXParser).
                var cost = attributes > freeCount ? attributes * (attributes - 1) / 2 : 0
                if inScope + namespaces > freeCount { cost += (inScope + namespaces) * (1 + attributes) }
                try spend(cost, on: &comparisons, at: tagStart)
                if !tag.isEmptyElement {  // the element stays open
                    depth += 1
                    if namespaces > 0 {
                        declarations.append((depth, namespaces))
                        inScope += namespaces
                    }
                }
            default:
                break
            }
        }
    }

    /// Adds `cost` to `comparisons`; throws once they pass ``maxComparisons``.
    private static func spend(_ cost: Int, on comparisons: inout Int, at tagStart: Int) throws(FormatError) {
        comparisons += cost
        if comparisons > maxComparisons {
            throw FormatError.limitExceeded(format: "xml", limit: "attribute comparisons", maximum: maxComparisons,
                                            actual: comparisons, location: .init(byteOffset: tagStart))
        }
    }

    /// Reads a start tag from its name (`i`, after the '<') to its '>' outside quoted values (or a
    /// '<', where libxml2 stops too): its attributes ('=' outside quotes), its namespace
    /// declarations (names starting with `xmlns`), whether it ends with `/>`, and where it ends.
    private static func readStartTag(_ b: UnsafeBufferPointer<UInt8>, from start: Int)
        -> (end: Int, attributes: Int, namespaces: Int, isEmptyElement: Bool) {
        var i = start
        var attributes = 0
        var namespaces = 0
        var quote: UInt8 = 0
        var afterSpace = false
        var previous: UInt8 = 0
        scanning: while i < b.count {
            let unit = b[i]
            i += 1
            if quote != 0 {
                if unit == quote { quote = 0 }
                continue
            }
            switch unit {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                quote = unit
            case UInt8(ascii: "="):
                attributes += 1
            case 0x20, 0x09, 0x0A, 0x0D:
                afterSpace = true
                continue scanning
            case UInt8(ascii: ">"):
                break scanning
            case UInt8(ascii: "<"):
                i -= 1
                break scanning
            case UInt8(ascii: "x") where afterSpace && isDeclaration(b, at: i - 1):
                namespaces += 1
            default:
                break
            }
            afterSpace = false
            previous = unit
        }
        return (i, attributes, namespaces, previous == UInt8(ascii: "/"))
    }

    /// Whether `b` holds more than `count` occurrences of `xmlns`.
    private static func hasMoreDeclarations(than count: Int, in b: UnsafeBufferPointer<UInt8>) -> Bool {
        var found = 0
        var i = 0
        while i < b.count, let x = memchr(b.baseAddress! + i, Int32(UInt8(ascii: "x")), b.count - i) {
            i = UnsafePointer<UInt8>(x.assumingMemoryBound(to: UInt8.self)) - b.baseAddress!
            if b.matches("xmlns", at: i) {
                found += 1
                if found > count { return true }
            }
            i += 1
        }
        return false
    }

    /// Whether `xmlns` at `i` starts a namespace declaration's name (`xmlns=`, `xmlns:p=`).
    private static func isDeclaration(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard b.matches("xmlns", at: i), i + 5 < b.count else { return false }
        switch b[i + 5] {
        case UInt8(ascii: ":"), UInt8(ascii: "="), 0x20, 0x09, 0x0A, 0x0D: return true
        default: return false
        }
    }

    private static func isNameStart(_ unit: UInt8) -> Bool {
        switch unit {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
             UInt8(ascii: ":"), 0x80...: true
        default: false
        }
    }

    /// The index after the first `terminator` at or after `from`, or the end of `b`.
    private static func end(of terminator: StaticString, in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var i = from
        while i < b.count, let found = memchr(b.baseAddress! + i, Int32(terminator.utf8Start[0]), b.count - i) {
            i = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - b.baseAddress!
            if b.matches(terminator, at: i) { return i + terminator.utf8CodeUnitCount }
            i += 1
        }
        return b.count
    }
}
