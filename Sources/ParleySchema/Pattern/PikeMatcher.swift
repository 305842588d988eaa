/// Runs a `PatternProgram` over a text in one pass: the set of live NFA states advances one
/// unit at a time, each state at most once per position, so a match costs
/// O(program size × text length) whatever the pattern's shape.
struct PikeMatcher {
    private let program: PatternProgram
    private var stack: [Int] = []
    private var steps = 0
    private let maxSteps: Int

    init(_ program: PatternProgram, maxSteps: Int) {
        self.program = program
        self.maxSteps = maxSteps
    }

    /// Whether the program matches anywhere in `units`.
    mutating func matches(_ units: some Sequence<UInt32>) throws(PatternError) -> Bool {
        var current = StateSet(capacity: program.instructions.count)
        var next = StateSet(capacity: program.instructions.count)
        var iterator = units.makeIterator()
        var previous: UInt32?
        var unit = iterator.next()
        var position = 0
        while true {
            if position == 0 || !program.isAnchoredAtStart {
                if try addClosure(0, to: &current, previous: previous, next: unit) { return true }
            }
            guard let consumed = unit, !(current.isEmpty && program.isAnchoredAtStart) else { return false }
            let following = iterator.next()
            next.removeAll()
            for index in 0..<current.count {
                let pc = current[index]
                let accepts: Bool
                switch program.instructions[pc] {
                case .unit(let expected): accepts = consumed == expected
                case .set(let set): accepts = program.sets[set].contains(consumed)
                default: accepts = false
                }
                if accepts, try addClosure(pc + 1, to: &next, previous: consumed, next: following) { return true }
            }
            swap(&current, &next)
            previous = consumed
            unit = following
            position += 1
        }
    }

    /// Adds `pc` and every state reachable from it without consuming to `set`; returns true when
    /// one of them is the match state.
    private mutating func addClosure(_ pc: Int, to set: inout StateSet, previous: UInt32?,
                                     next: UInt32?) throws(PatternError) -> Bool {
        stack.append(pc)
        while let pc = stack.popLast() {
            guard set.insert(pc) else { continue }
            steps += 1
            if steps > maxSteps {
                stack.removeAll()
                throw PatternError(code: .budgetExceeded,
                                   message: "the match needs more than \(maxSteps) steps", offset: nil)
            }
            switch program.instructions[pc] {
            case .match:
                stack.removeAll()
                return true
            case .jump(let target):
                stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assertion(let assertion):
                if assertion.holds(previous: previous, next: next) { stack.append(pc + 1) }
            case .unit, .set:
                break
            }
        }
        return false
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
