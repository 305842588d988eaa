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
}
