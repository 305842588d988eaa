/// Parses ECMA-262 pattern syntax into a `PatternNode` tree and the sets it uses: the `u`-mode
/// grammar strictly, and without `u` the web-compatibility grammar of Annex B.
struct PatternParser {
    private let units: [UInt32]
    private let unicode: Bool
    private let maxNesting: Int
    private var position = 0
    private var depth = 0
    private var captureCount = 0
    private let totalCaptures: Int
    private let groupNames: [String: Int]
    private(set) var sets: [CodePointSet] = []

    /// The number of capturing groups in the pattern.
    var captureTotal: Int { totalCaptures }

    init(_ source: String, unicode: Bool, maxNesting: Int) throws(PatternError) {
        units = unicode ? source.unicodeScalars.map(\.value) : source.utf16.map(UInt32.init)
        self.unicode = unicode
        self.maxNesting = maxNesting
        (totalCaptures, groupNames) = try PatternParser.scanGroups(units)
    }

    /// Parses the whole pattern.
    mutating func parse() throws(PatternError) -> PatternNode {
        let node = try parseDisjunction()
        if position < units.count {
            throw error(units[position] == 0x29 ? "unmatched ')'" : "unexpected character")
        }
        return node
    }

    // MARK: Structure

    private mutating func parseDisjunction() throws(PatternError) -> PatternNode {
        depth += 1
        defer { depth -= 1 }
        if depth > maxNesting {
            throw PatternError(code: .budgetExceeded, message: "groups nest deeper than \(maxNesting)",
                               offset: position)
        }
        var branches = [try parseAlternative()]
        while eat(0x7C) { branches.append(try parseAlternative()) }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseAlternative() throws(PatternError) -> PatternNode {
        var terms: [PatternNode] = []
        while let unit = peek(), unit != 0x7C, unit != 0x29 {
            terms.append(try parseTerm())
        }
        switch terms.count {
        case 0: return .empty
        case 1: return terms[0]
        default: return .concatenation(terms)
        }
    }

    private mutating func parseTerm() throws(PatternError) -> PatternNode {
        let start = position
        let unit = units[position]
        var quantifiable = true
        let atom: PatternNode
        switch unit {
        case 0x5E: position += 1; atom = .assertion(.start); quantifiable = false
        case 0x24: position += 1; atom = .assertion(.end); quantifiable = false
        case 0x5C where peek(1) == 0x62: position += 2; atom = .assertion(.wordBoundary); quantifiable = false
        case 0x5C where peek(1) == 0x42: position += 2; atom = .assertion(.notWordBoundary); quantifiable = false
        case 0x28:
            (atom, quantifiable) = try parseGroup()
        default:
            atom = try parseAtom()
        }
        guard let quantifier = try parseQuantifier() else { return atom }
        if !quantifiable {
            throw PatternError(code: .syntax, message: "nothing to repeat", offset: start)
        }
        return .repetition(atom, min: quantifier.min, max: quantifier.max, greedy: quantifier.greedy)
    }

    /// `(…)`, `(?:…)`, `(?<name>…)` and the lookarounds; returns whether a quantifier may follow.
    private mutating func parseGroup() throws(PatternError) -> (PatternNode, Bool) {
        let start = position
        position += 1
        var capture: Int?
        var lookaround: (ahead: Bool, negated: Bool)?
        if eat(0x3F) {
            if eat(0x3A) {
            } else if eat(0x3D) { lookaround = (true, false)
            } else if eat(0x21) { lookaround = (true, true)
            } else if peek() == 0x3C, peek(1) == 0x3D { position += 2; lookaround = (false, false)
            } else if peek() == 0x3C, peek(1) == 0x21 { position += 2; lookaround = (false, true)
            } else if eat(0x3C) {
                _ = try parseGroupName()
                captureCount += 1
                capture = captureCount
            } else if isModifierGroup() {
                throw PatternError(code: .unsupported, message: "pattern modifiers (?ims-ims:…) are not supported",
                                   offset: start)
            } else {
                throw error("invalid group")
            }
        } else {
            captureCount += 1
            capture = captureCount
        }
        let body = try parseDisjunction()
        guard eat(0x29) else { throw PatternError(code: .syntax, message: "unterminated group", offset: start) }
        if let lookaround {
            // Annex B lets a lookahead take a quantifier without `u`; never a lookbehind.
            return (.lookaround(body, ahead: lookaround.ahead, negated: lookaround.negated),
                    !unicode && lookaround.ahead)
        }
        return (.group(body, capture: capture), true)
    }

    /// Whether `ims-ims:` follows (ES2025's modifiers); `(?i)` without the colon is not ECMA-262.
    private func isModifierGroup() -> Bool {
        var ahead = 0
        while let unit = peek(ahead), unit == 0x69 || unit == 0x6D || unit == 0x73 || unit == 0x2D { ahead += 1 }
        return ahead > 0 && peek(ahead) == 0x3A
    }

    /// The name after `(?<` or `\k<`, through the closing `>`.
    private mutating func parseGroupName() throws(PatternError) -> String {
        let start = position
        var scalars = String.UnicodeScalarView()
        while let unit = peek(), unit != 0x3E {
            var value = unit
            if unit == 0x5C {
                position += 1
                guard eat(0x75), let escaped = try parseUnicodeEscapeValue(nameContext: true) else {
                    throw PatternError(code: .syntax, message: "invalid group name", offset: start)
                }
                value = escaped
            } else {
                position += 1
                if !unicode, (0xD800...0xDBFF).contains(unit), let low = peek(), (0xDC00...0xDFFF).contains(low) {
                    position += 1
                    value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
            }
            guard let scalar = Unicode.Scalar(value),
                  scalars.isEmpty ? (scalar.properties.isIDStart || scalar == "$" || scalar == "_")
                                  : (scalar.properties.isIDContinue || scalar == "$" || value == 0x200C
                                     || value == 0x200D) else {
                throw PatternError(code: .syntax, message: "invalid group name", offset: start)
            }
            scalars.append(scalar)
        }
        guard !scalars.isEmpty, eat(0x3E) else {
            throw PatternError(code: .syntax, message: "invalid group name", offset: start)
        }
        return String(scalars)
    }

    private mutating func parseQuantifier() throws(PatternError) -> (min: Int, max: Int?, greedy: Bool)? {
        guard let unit = peek() else { return nil }
        var bounds: (min: Int, max: Int?)
        switch unit {
        case 0x2A: position += 1; bounds = (0, nil)
        case 0x2B: position += 1; bounds = (1, nil)
        case 0x3F: position += 1; bounds = (0, 1)
        case 0x7B:
            let start = position
            guard let braces = parseBraceQuantifier() else {
                if unicode { throw error("incomplete quantifier") }
                return nil  // Annex B: a literal `{`
            }
            if let max = braces.max, max < braces.min {
                throw PatternError(code: .syntax, message: "numbers out of order in {} quantifier", offset: start)
            }
            bounds = braces
        default:
            return nil
        }
        let greedy = !eat(0x3F)
        return (bounds.min, bounds.max, greedy)
    }

    /// `{n}`, `{n,}` or `{n,m}` at the position; leaves the position alone when there is none.
    private mutating func parseBraceQuantifier() -> (min: Int, max: Int?)? {
        let start = position
        position += 1
        guard let min = parseDecimal() else { position = start; return nil }
        var max: Int? = min
        if eat(0x2C) {
            max = parseDecimal()
        }
        guard eat(0x7D) else { position = start; return nil }
        return (min, max)
    }

    /// Decimal digits, saturating at `Int32.max` (any count that large exceeds the program limit).
    private mutating func parseDecimal() -> Int? {
        var value: Int?
        while let unit = peek(), (0x30...0x39).contains(unit) {
            value = min((value ?? 0) * 10 + Int(unit - 0x30), Int(Int32.max))
            position += 1
        }
        return value
    }

    // MARK: Atoms

    private mutating func parseAtom() throws(PatternError) -> PatternNode {
        let unit = units[position]
        switch unit {
        case 0x2E:
            position += 1
            return .set(addSet(CodePointSet.dot))
        case 0x5B:
            return .set(addSet(try parseClass()))
        case 0x5C:
            return try parseAtomEscape()
        case 0x2A, 0x2B, 0x3F:
            throw error("nothing to repeat")
        case 0x7B:
            if unicode { throw error("lone quantifier brackets") }
            if parseBraceQuantifier() != nil { throw error("nothing to repeat") }
            position += 1
            return .unit(unit)
        case 0x7D, 0x5D:
            if unicode { throw error("lone quantifier brackets") }
            position += 1
            return .unit(unit)
        default:
            position += 1
            return .unit(unit)
        }
    }

    private mutating func parseAtomEscape() throws(PatternError) -> PatternNode {
        let start = position
        position += 1
        guard let unit = peek() else { throw error("\\ at end of pattern") }
        // Backreferences: a decimal number up to the group count, `\k<name>`.
        if (0x31...0x39).contains(unit) {
            let save = position
            if let number = parseDecimal(), number <= totalCaptures { return .backreference(number) }
            if unicode { throw PatternError(code: .syntax, message: "invalid escape", offset: start) }
            position = save
            return .unit(try parseLegacyOctalOrIdentity())
        }
        if unit == 0x6B, unicode || !groupNames.isEmpty {
            position += 1
            guard eat(0x3C) else {
                throw PatternError(code: .syntax, message: "invalid named reference", offset: start)
            }
            let name = try parseGroupName()
            guard let number = groupNames[name] else {
                throw PatternError(code: .syntax, message: "invalid named capture referenced", offset: start)
            }
            return .backreference(number)
        }
        if let set = try parseClassEscape() { return .set(addSet(set)) }
        return .unit(try parseCharacterEscape(inClass: false))
    }

    /// `\d \D \s \S \w \W`, and `\p{…} \P{…}` with `u`; the position is after the backslash.
    private mutating func parseClassEscape() throws(PatternError) -> CodePointSet? {
        guard let unit = peek() else { return nil }
        let ranges: [ClosedRange<UInt32>]
        switch unit {
        case 0x64, 0x44: ranges = CodePointSet.digits
        case 0x73, 0x53: ranges = CodePointSet.whiteSpace
        case 0x77, 0x57: ranges = CodePointSet.wordUnits
        case 0x70 where unicode, 0x50 where unicode:
            return try parsePropertyEscape()
        default:
            return nil
        }
        position += 1
        let negated = unit == 0x44 || unit == 0x53 || unit == 0x57
        return CodePointSet(ranges: negated ? CodePointSet.complement(ranges) : ranges)
    }

    private mutating func parsePropertyEscape() throws(PatternError) -> CodePointSet {
        let start = position - 1
        let negated = units[position] == 0x50
        position += 1
        guard eat(0x7B) else { throw PatternError(code: .syntax, message: "invalid property name", offset: start) }
        var name = ""
        while let unit = peek(), unit != 0x7D {
            guard unit < 0x80, let scalar = Unicode.Scalar(unit),
                  scalar.properties.isAlphabetic || (0x30...0x39).contains(unit) || unit == 0x5F || unit == 0x3D else {
                throw PatternError(code: .syntax, message: "invalid property name", offset: start)
            }
            name.unicodeScalars.append(scalar)
            position += 1
        }
        guard eat(0x7D) else { throw PatternError(code: .syntax, message: "invalid property name", offset: start) }
        switch UnicodeProperty.resolve(name) {
        case .property(let property):
            return CodePointSet(properties: [(property, negated)])
        case .unknown:
            throw PatternError(code: .syntax, message: "invalid property name \(name)", offset: start)
        case .unsupported(let message):
            throw PatternError(code: .unsupported, message: message, offset: start)
        }
    }

    /// A CharacterEscape (the position is after the backslash): control escapes, `\cX`, `\0`,
    /// `\xHH`, `\uHHHH`, `\u{…}`, identity escapes. Returns the unit or code point.
    private mutating func parseCharacterEscape(inClass: Bool) throws(PatternError) -> UInt32 {
        let start = position - 1
        guard let unit = peek() else { throw error("\\ at end of pattern") }
        position += 1
        switch unit {
        case 0x74: return 0x09
        case 0x6E: return 0x0A
        case 0x76: return 0x0B
        case 0x66: return 0x0C
        case 0x72: return 0x0D
        case 0x63:
            // Annex B also takes a digit or `_` inside a class.
            if let letter = peek(),
               isASCIILetter(letter) || (inClass && !unicode && (isDigit(letter) || letter == 0x5F)) {
                position += 1
                return letter % 32
            }
            if unicode { throw PatternError(code: .syntax, message: "invalid unicode escape", offset: start) }
            position -= 1  // Annex B: `\c` without a letter is a backslash, then `c`.
            return 0x5C
        case 0x30 where !(peek().map(isDigit) ?? false):
            return 0
        case 0x30...0x39:
            if unicode { throw PatternError(code: .syntax, message: "invalid decimal escape", offset: start) }
            position -= 1
            return try parseLegacyOctalOrIdentity()
        case 0x78:
            if let high = peek().flatMap(hexValue), let low = peek(1).flatMap(hexValue) {
                position += 2
                return high * 16 + low
            }
            if unicode { throw PatternError(code: .syntax, message: "invalid escape", offset: start) }
            return unit
        case 0x75:
            if let value = try parseUnicodeEscapeValue(nameContext: false) { return value }
            if unicode { throw PatternError(code: .syntax, message: "invalid unicode escape", offset: start) }
            return unit
        default:
            if unicode {
                let isSyntax = "^$\\.*+?()[]{}|/".unicodeScalars.contains { $0.value == unit }
                guard isSyntax || (inClass && unit == 0x2D) else {
                    throw PatternError(code: .syntax, message: "invalid escape", offset: start)
                }
            } else if unit == 0x6B, !groupNames.isEmpty, !inClass {
                throw PatternError(code: .syntax, message: "invalid named reference", offset: start)
            }
            return unit
        }
    }

    /// After `\u`: `HHHH` (a surrogate pair `\uHHHH\uHHHH` is one code point with `u` or in a
    /// group name) or, with `u` or in a group name, `{H…}`. `nil` when neither follows.
    private mutating func parseUnicodeEscapeValue(nameContext: Bool) throws(PatternError) -> UInt32? {
        let start = position
        if (unicode || nameContext), eat(0x7B) {
            var value: UInt32 = 0
            var digits = 0
            while let unit = peek(), let digit = hexValue(unit) {
                value = min(value * 16 + digit, 0x110000)
                digits += 1
                position += 1
            }
            guard digits > 0, value <= 0x10FFFF, eat(0x7D) else {
                throw PatternError(code: .syntax, message: "invalid unicode escape", offset: start - 2)
            }
            return value
        }
        guard let value = parseFourHex() else { return nil }
        if (unicode || nameContext), (0xD800...0xDBFF).contains(value), peek() == 0x5C, peek(1) == 0x75 {
            let save = position
            position += 2
            if let low = parseFourHex(), (0xDC00...0xDFFF).contains(low) {
                return 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            }
            position = save
        }
        return value
    }

    private mutating func parseFourHex() -> UInt32? {
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let unit = peek(offset), let digit = hexValue(unit) else { return nil }
            value = value * 16 + digit
        }
        position += 4
        return value
    }

    /// Annex B: `\1`…`\377` as octal when not a backreference, `\8` and `\9` as the digits.
    private mutating func parseLegacyOctalOrIdentity() throws(PatternError) -> UInt32 {
        guard let first = peek() else { throw error("\\ at end of pattern") }
        position += 1
        guard (0x30...0x37).contains(first) else { return first }
        var value = first - 0x30
        for _ in 0..<2 {
            guard let unit = peek(), (0x30...0x37).contains(unit), value * 8 + (unit - 0x30) <= 0o377 else { break }
            value = value * 8 + (unit - 0x30)
            position += 1
        }
        return value
    }

    // MARK: Classes

    /// One member of a class: a unit (or code point) or a set (`\d`, `\p{…}`).
    private enum ClassAtom {
        case unit(UInt32)
        case set(CodePointSet)
    }

    private mutating func parseClass() throws(PatternError) -> CodePointSet {
        let start = position
        position += 1
        depth += 1
        defer { depth -= 1 }
        let negated = eat(0x5E)
        var ranges: [ClosedRange<UInt32>] = []
        var properties: [(property: UnicodeProperty, negated: Bool)] = []
        func add(_ atom: ClassAtom) {
            switch atom {
            case .unit(let unit): ranges.append(unit...unit)
            case .set(let set):
                ranges += set.isNegated ? CodePointSet.complement(set.ranges) : set.ranges
                properties += set.properties.map { ($0.property, $0.negated != set.isNegated) }
            }
        }
        while true {
            guard let unit = peek() else {
                throw PatternError(code: .syntax, message: "unterminated character class", offset: start)
            }
            if unit == 0x5D { position += 1; break }
            let first = try parseClassAtom()
            if peek() == 0x2D, let after = peek(1), after != 0x5D {
                let dashOffset = position
                position += 1
                let second = try parseClassAtom()
                switch (first, second) {
                case (.unit(let low), .unit(let high)):
                    guard low <= high else {
                        throw PatternError(code: .syntax, message: "range out of order in character class",
                                           offset: dashOffset)
                    }
                    ranges.append(low...high)
                default:
                    if unicode {
                        throw PatternError(code: .syntax, message: "invalid character class range", offset: dashOffset)
                    }
                    add(first)
                    add(.unit(0x2D))
                    add(second)
                }
            } else {
                add(first)
            }
        }
        return CodePointSet(ranges: ranges, properties: properties, negated: negated)
    }

    private mutating func parseClassAtom() throws(PatternError) -> ClassAtom {
        let unit = units[position]
        guard unit == 0x5C else {
            position += 1
            return .unit(unit)
        }
        let start = position
        position += 1
        guard let escaped = peek() else { throw error("\\ at end of pattern") }
        switch escaped {
        case 0x62:
            position += 1
            return .unit(0x08)
        case 0x2D where unicode:
            position += 1
            return .unit(0x2D)
        case 0x42 where unicode, 0x31...0x39 where unicode:
            throw PatternError(code: .syntax, message: "invalid class escape", offset: start)
        case 0x31...0x39:
            return .unit(try parseLegacyOctalOrIdentity())
        default:
            if let set = try parseClassEscape() { return .set(set) }
            if escaped == 0x6B, unicode { throw PatternError(code: .syntax, message: "invalid escape", offset: start) }
            return .unit(try parseCharacterEscape(inClass: true))
        }
    }

    // MARK: Helpers

    private mutating func addSet(_ set: CodePointSet) -> Int {
        sets.append(set)
        return sets.count - 1
    }

    private func peek(_ ahead: Int = 0) -> UInt32? {
        position + ahead < units.count ? units[position + ahead] : nil
    }

    private mutating func eat(_ unit: UInt32) -> Bool {
        guard peek() == unit else { return false }
        position += 1
        return true
    }

    private func error(_ message: String) -> PatternError {
        PatternError(code: .syntax, message: message, offset: position)
    }

    /// Counts the capturing groups and collects the group names before parsing, since `\2` may
    /// refer to a group that comes later.
    private static func scanGroups(_ units: [UInt32]) throws(PatternError) -> (Int, [String: Int]) {
        var count = 0
        var names: [String: Int] = [:]
        var index = 0
        var inClass = false
        while index < units.count {
            let unit = units[index]
            if unit == 0x5C {
                index += 2
                continue
            }
            if inClass {
                if unit == 0x5D { inClass = false }
            } else if unit == 0x5B {
                inClass = true
            } else if unit == 0x28 {
                let next = index + 1 < units.count ? units[index + 1] : 0
                if next != 0x3F {
                    count += 1
                } else if index + 2 < units.count, units[index + 2] == 0x3C, index + 3 < units.count,
                          units[index + 3] != 0x3D, units[index + 3] != 0x21 {
                    count += 1
                    var end = index + 3
                    var name = String.UnicodeScalarView()
                    while end < units.count, units[end] != 0x3E {
                        if let scalar = Unicode.Scalar(units[end]) { name.append(scalar) }
                        end += 1
                    }
                    let key = String(name)
                    if names[key] != nil {
                        throw PatternError(code: .syntax, message: "duplicate capture group name", offset: index)
                    }
                    names[key] = count
                }
            }
            index += 1
        }
        return (count, names)
    }
}

private func isDigit(_ unit: UInt32) -> Bool { (0x30...0x39).contains(unit) }
private func isASCIILetter(_ unit: UInt32) -> Bool { (0x41...0x5A).contains(unit) || (0x61...0x7A).contains(unit) }
private func hexValue(_ unit: UInt32) -> UInt32? {
    switch unit {
    case 0x30...0x39: unit - 0x30
    case 0x41...0x46: unit - 0x41 + 10
    case 0x61...0x66: unit - 0x61 + 10
    default: nil
    }
}
