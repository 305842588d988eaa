/// Matches patterns with lookarounds or backreferences, which no finite automaton can, by
/// backtracking over a `PatternProgram` compiled for it, with an explicit stack. Every instruction
/// executed is a step; past the budget the match fails with `.budgetExceeded`, so a hostile text
/// cannot hang it.
struct BacktrackingMatcher {
    private let program: PatternProgram
    private let text: [UInt32]
    private let maxSteps: Int
    private var steps = 0
    private var registers: [Int]
    private var stack: [Frame] = []

    private enum Frame {
        /// Resume at `pc` and `position`.
        case branch(pc: Int, position: Int)
        /// Put a register back when backtracking past its change.
        case restore(register: Int, value: Int)
    }

    /// A matcher of `program`, which must be compiled for backtracking, over `text`.
    init(_ program: PatternProgram, text: [UInt32], maxSteps: Int) {
        self.program = program
        self.text = text
        self.maxSteps = maxSteps
        registers = Array(repeating: -1, count: program.registerCount)
    }

    /// Whether the pattern matches starting at some position of the text.
    mutating func search() throws(PatternError) -> Bool {
        let lastStart = program.isAnchoredAtStart ? 0 : text.count
        for start in 0...lastStart {
            for index in registers.indices { registers[index] = -1 }
            if try run(from: 0, at: start, until: nil) != nil { return true }
        }
        return false
    }

    /// Runs from `pc` at `position` until `.match` (or, for a sub-program, `.lookaroundEnd`, at
    /// `requiredEnd` when given); returns the end position, or nil when every path fails. The
    /// register changes of a successful run stay recorded on the stack, its branches are dropped.
    private mutating func run(from startPC: Int, at startPosition: Int, until requiredEnd: Int?)
        throws(PatternError) -> Int? {
        let base = stack.count
        var pc = startPC
        var position = startPosition
        while true {
            steps += 1
            if steps > maxSteps {
                throw PatternError(code: .budgetExceeded,
                                   message: "the match needs more than \(maxSteps) backtracking steps", offset: nil)
            }
            var failed = false
            switch program.instructions[pc] {
            case .unit(let expected):
                if position < text.count, text[position] == expected { pc += 1; position += 1 } else { failed = true }
            case .set(let index):
                if position < text.count, program.sets[index].contains(text[position]) {
                    pc += 1
                    position += 1
                } else {
                    failed = true
                }
            case .split(let first, let second):
                stack.append(.branch(pc: second, position: position))
                pc = first
            case .jump(let target):
                pc = target
            case .assertion(let assertion):
                let previous = position > 0 ? text[position - 1] : nil
                let next = position < text.count ? text[position] : nil
                if assertion.holds(previous: previous, next: next) { pc += 1 } else { failed = true }
            case .save(let register):
                stack.append(.restore(register: register, value: registers[register]))
                registers[register] = position
                pc += 1
            case .clearCaptures(let first, let last):
                steps += 2 * (last - first)  // each register it may save for backtracking is work too
                for register in (2 * first)...(2 * last + 1) where registers[register] >= 0 {
                    stack.append(.restore(register: register, value: registers[register]))
                    registers[register] = -1
                }
                pc += 1
            case .requireProgress(let register):
                if registers[register] == position { failed = true } else { pc += 1 }
            case .backreference(let group):
                let start = registers[2 * group]
                let end = registers[2 * group + 1]
                if start < 0 || end < start {
                    pc += 1
                } else if position + (end - start) <= text.count,
                          text[start..<end].elementsEqual(text[position..<(position + end - start)]) {
                    position += end - start
                    pc += 1
                } else {
                    failed = true
                }
            case .lookaround(let ahead, let negated, let next):
                let found = try lookaround(from: pc + 1, at: position, ahead: ahead)
                if found != negated { pc = next } else { failed = true }
            case .lookaroundEnd:
                if requiredEnd == nil || requiredEnd == position {
                    dropBranches(above: base)
                    return position
                }
                failed = true
            case .match:
                dropBranches(above: base)
                return position
            }
            if failed {
                guard let resumed = backtrack(to: base) else { return nil }
                (pc, position) = resumed
            }
        }
    }

    /// Runs a lookaround's sub-program: ahead from `position`, or behind from each earlier start
    /// that ends exactly at `position`. A negative or failed one leaves the registers as they were.
    private mutating func lookaround(from pc: Int, at position: Int, ahead: Bool) throws(PatternError) -> Bool {
        let base = stack.count
        if ahead {
            if try run(from: pc, at: position, until: nil) != nil { return true }
        } else {
            for start in stride(from: position, through: 0, by: -1)
            where try run(from: pc, at: start, until: position) != nil {
                return true
            }
        }
        _ = backtrack(to: base)
        return false
    }

    /// Pops frames down to `base`, restoring registers, until a branch to resume; nil at `base`.
    private mutating func backtrack(to base: Int) -> (Int, Int)? {
        while stack.count > base {
            switch stack.removeLast() {
            case .restore(let register, let value): registers[register] = value
            case .branch(let pc, let position): return (pc, position)
            }
        }
        return nil
    }

    /// Removes the branches above `base` but keeps their register restores, so a finished
    /// sub-match is atomic (as ECMA lookarounds are) and still undone by an outer backtrack.
    private mutating func dropBranches(above base: Int) {
        var write = base
        for read in base..<stack.count {
            if case .restore = stack[read] {
                stack[write] = stack[read]
                write += 1
            }
        }
        stack.removeLast(stack.count - write)
    }
}
