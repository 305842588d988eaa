/// Runs a linear `PatternProgram` over a text in one pass: the set of live NFA states advances one
/// unit at a time, each state at most once per position, so a match costs
/// O(program size × text length) whatever the pattern's shape.
struct PikeMatcher {
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

    /// Whether the program matches anywhere in `units`.
    func matches(_ units: some Sequence<UInt32>) throws(PatternError) -> Bool {
        var closure = Closure(instructions: instructions, maxSteps: maxSteps)
        var current = StateSet(capacity: instructions.count)
        var next = StateSet(capacity: instructions.count)
        var iterator = units.makeIterator()
        var previous: UInt32?
        var unit = iterator.next()
        var position = 0
        while true {
            if position == 0 || !isAnchoredAtStart {
                if try closure.add(0, to: &current, previous: previous, next: unit) { return true }
            }
            guard let consumed = unit, !(current.isEmpty && isAnchoredAtStart) else { return false }
            let following = iterator.next()
            next.removeAll()
            for index in 0..<current.count {
                let pc = current[index]
                let accepts: Bool
                switch instructions[pc] {
                case .unit(let expected): accepts = consumed == expected
                case .set(let set): accepts = sets[set].contains(consumed)
                default: accepts = false
                }
                if accepts, try closure.add(pc + 1, to: &next, previous: consumed, next: following) { return true }
            }
            swap(&current, &next)
            previous = consumed
            unit = following
            position += 1
        }
    }
}

/// Follows the non-consuming instructions (jumps, splits, assertions) from a state, counting
/// every state added against the step budget.
private struct Closure {
    let instructions: [PatternProgram.Instruction]
    let maxSteps: Int
    var stack: [Int] = []
    var steps = 0

    init(instructions: [PatternProgram.Instruction], maxSteps: Int) {
        self.instructions = instructions
        self.maxSteps = maxSteps
        stack.reserveCapacity(instructions.count)
    }

    /// Adds `pc` and every state reachable from it without consuming to `set`; returns true when
    /// one of them is the match state.
    mutating func add(_ start: Int, to set: inout StateSet, previous: UInt32?,
                      next: UInt32?) throws(PatternError) -> Bool {
        // Follows each chain directly; only the second target of a split waits on the stack.
        var pc = start
        while true {
            if set.insert(pc) {
                steps += 1
                if steps > maxSteps {
                    stack.removeAll(keepingCapacity: true)
                    throw PatternError(code: .budgetExceeded,
                                       message: "the match needs more than \(maxSteps) steps", offset: nil)
                }
                switch instructions[pc] {
                case .match:
                    stack.removeAll(keepingCapacity: true)
                    return true
                case .jump(let target):
                    pc = target
                    continue
                case .split(let first, let second):
                    stack.append(second)
                    pc = first
                    continue
                case .assertion(let assertion):
                    if assertion.holds(previous: previous, next: next) {
                        pc += 1
                        continue
                    }
                case .save, .clearCaptures, .requireProgress:
                    // Only in backtracking programs; for the question "is there a match" they are no-ops.
                    pc += 1
                    continue
                case .unit, .set, .backreference, .lookaround, .lookaroundEnd:
                    // Consuming states wait for the next unit; a linear program holds none of the others.
                    break
                }
            }
            guard let waiting = stack.popLast() else { return false }
            pc = waiting
        }
    }
}

/// A set of instruction indices with O(1) insert, membership and clearing (a sparse set).
private struct StateSet {
    private var dense: [Int]
    private var sparse: [Int]
    private(set) var count = 0

    init(capacity: Int) {
        dense = Array(repeating: 0, count: capacity)
        sparse = Array(repeating: 0, count: capacity)
    }

    var isEmpty: Bool { count == 0 }

    subscript(index: Int) -> Int { dense[index] }

    /// Inserts `pc`; false when it was already there.
    mutating func insert(_ pc: Int) -> Bool {
        let slot = sparse[pc]
        if slot < count, dense[slot] == pc { return false }
        sparse[pc] = count
        dense[count] = pc
        count += 1
        return true
    }

    mutating func removeAll() { count = 0 }
}
