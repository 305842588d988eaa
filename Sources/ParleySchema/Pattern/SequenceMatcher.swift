/// Runs a linear `PatternProgram` without splits or jumps (`isSequence`: units, sets and assertions
/// in a fixed order, such as `^[A-Z]{3}-[0-9]{4}$`): from each start there is one state only, so
/// the program is compared with the text directly, without the Pike matcher's state sets.
struct SequenceMatcher {
    private let instructions: [PatternProgram.Instruction]
    private let sets: [CodePointSet]
    private let isAnchoredAtStart: Bool
    private let maxSteps: Int

    init(_ program: PatternProgram, maxSteps: Int) {
        instructions = program.instructions
        sets = program.sets
        isAnchoredAtStart = program.isAnchoredAtStart
        self.maxSteps = maxSteps
    }

    /// Whether the sequence matches anywhere in `units`: tried from each start in turn (only the
    /// first when the pattern is anchored), every instruction checked counting as one step.
    func matches(_ units: TextUnits) throws(PatternError) -> Bool {
        var start = units.makeIterator()
        var previous: UInt32?
        var steps = 0
        while true {
            var iterator = start
            var unit = iterator.next()
            let first = unit
            var before = previous
            var matched = false
            attempt: for instruction in instructions {
                steps += 1
                if steps > maxSteps {
                    throw PatternError(code: .budgetExceeded,
                                       message: "the match needs more than \(maxSteps) steps", offset: nil)
                }
                switch instruction {
                case .unit(let expected):
                    guard let consumed = unit, consumed == expected else { break attempt }
                    before = consumed
                    unit = iterator.next()
                case .set(let set):
                    guard let consumed = unit, sets[set].contains(consumed) else { break attempt }
                    before = consumed
                    unit = iterator.next()
                case .assertion(let assertion):
                    guard assertion.holds(previous: before, next: unit) else { break attempt }
                case .match:
                    matched = true
                    break attempt
                default:
                    break attempt
                }
            }
            if matched { return true }
            guard !isAnchoredAtStart, let first else { return false }
            _ = start.next()
            previous = first
        }
    }

    /// One instruction for ASCII text: the units it consumes as two bit words (a unit or a set's
    /// members below 128), an assertion, or the match.
    enum ASCIIStep: Sendable {
        case units(low: UInt64, high: UInt64)
        case assertion(PatternAssertion)
        case match

        init(_ instruction: PatternProgram.Instruction, sets: [CodePointSet]) {
            switch instruction {
            case .assertion(let assertion): self = .assertion(assertion)
            case .match: self = .match
            default:
                var low: UInt64 = 0
                var high: UInt64 = 0
                for unit in UInt32(0)..<128 {
                    let member: Bool
                    switch instruction {
                    case .unit(let expected): member = unit == expected
                    case .set(let set): member = sets[set].contains(unit)
                    default: member = false
                    }
                    if member, unit < 64 { low |= 1 << UInt64(unit) }
                    if member, unit >= 64 { high |= 1 << UInt64(unit - 64) }
                }
                self = .units(low: low, high: high)
            }
        }
    }

    /// The units of `steps` when they are `^`, units, `$` and the match, in that order: the
    /// sequence then matches a text exactly when the text is one unit per entry (`^` holds only at
    /// the start, `$` only at the end, and no later start can match).
    static func wholeUnits(_ steps: [ASCIIStep]) -> [(low: UInt64, high: UInt64)]? {
        guard steps.count >= 3, case .assertion(.start) = steps[0], case .match = steps[steps.count - 1],
            case .assertion(.end) = steps[steps.count - 2]
        else { return nil }
        var units: [(low: UInt64, high: UInt64)] = []
        for step in steps[1..<(steps.count - 2)] {
            guard case .units(let low, let high) = step else { return nil }
            units.append((low, high))
        }
        return units
    }

    /// Whether the ASCII `bytes` are one unit of `units` each (see ``wholeUnits(_:)``).
    static func matchesWhole(_ bytes: UnsafeBufferPointer<UInt8>, _ units: [(low: UInt64, high: UInt64)]) -> Bool {
        guard bytes.count == units.count else { return false }
        for (byte, unit) in zip(bytes, units) {
            let word = byte < 64 ? unit.low >> UInt64(byte) : unit.high >> UInt64(byte &- 64)
            if word & 1 == 0 { return false }
        }
        return true
    }

    /// `matches(_:)` for a text of ASCII bytes only (each byte is then one unit, with or without
    /// the `u` flag), with the program's `asciiSteps`: the same starts, steps and budget, without
    /// decoding the text or reading the sets. `nil` when the budget runs out.
    static func matchesASCII(
        _ bytes: UnsafeBufferPointer<UInt8>, _ steps: [ASCIIStep], anchored: Bool, maxSteps: Int
    ) -> Bool? {
        var start = 0
        var taken = 0
        while true {
            var position = start
            attempt: for step in steps {
                taken += 1
                if taken > maxSteps { return nil }
                switch step {
                case .units(let low, let high):
                    guard position < bytes.count else { break attempt }
                    let unit = UInt64(bytes[position])
                    let word = unit < 64 ? low >> unit : high >> (unit &- 64)
                    guard word & 1 != 0 else { break attempt }
                    position += 1
                case .assertion(let assertion):
                    let previous = position > 0 ? UInt32(bytes[position - 1]) : nil
                    let next = position < bytes.count ? UInt32(bytes[position]) : nil
                    guard assertion.holds(previous: previous, next: next) else { break attempt }
                case .match:
                    return true
                }
            }
            guard !anchored, start < bytes.count else { return false }
            start += 1
        }
    }
}
