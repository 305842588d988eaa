/// A pattern compiled to a flat list of instructions, for one of two matchers.
///
/// A *linear* program (no lookarounds or backreferences) is a Thompson NFA that a `PikeMatcher` runs
/// in one pass over the text, every live state advanced together. A *backtracking* program adds
/// capture slots, empty-iteration checks and lookaround sub-programs, and a `BacktrackingMatcher`
/// runs it in ECMA's order. One builder emits both: only groups and repetitions differ.
struct PatternProgram: Sendable {
    enum Instruction: Sendable {
        /// Consumes one unit equal to the operand.
        case unit(UInt32)
        /// Consumes one unit of `sets[index]`.
        case set(Int)
        /// Continues at both targets (a backtracking matcher tries the first, then the second).
        case split(Int, Int)
        case jump(Int)
        /// Continues when the assertion holds at the position.
        case assertion(PatternAssertion)
        /// Stores the position in a register (capture bounds and loop-entry positions). Backtracking only.
        case save(Int)
        /// Forgets the captures of groups `first...last`: ECMA clears a quantified group's inner
        /// captures at the start of each iteration. Backtracking only.
        case clearCaptures(first: Int, last: Int)
        /// Fails when the position equals the register: ECMA ends a loop whose iteration matched
        /// nothing. Backtracking only.
        case requireProgress(Int)
        /// Matches the text group `n` captured (nothing when it did not participate). Backtracking only.
        case backreference(Int)
        /// Runs the sub-program from the next instruction to its `lookaroundEnd`, then continues at
        /// `next` when its outcome (negated or not) holds. Backtracking only.
        case lookaround(ahead: Bool, negated: Bool, next: Int)
        case lookaroundEnd
        case match
    }

    let instructions: [Instruction]
    let sets: [CodePointSet]
    /// Every match starts at the beginning of the text, so later starts need not be tried.
    let isAnchoredAtStart: Bool
    /// Whether this program is for the backtracking matcher (with captures and progress checks).
    let isBacktracking: Bool
    /// Whether this linear program has no splits or jumps, so a `SequenceMatcher` runs it.
    let isSequence: Bool
    /// For a sequence, its instructions as ASCII text sees them (empty otherwise).
    let asciiSteps: [SequenceMatcher.ASCIIStep]
    /// For a sequence of units between `^` and `$` alone (such as `^[A-Z]{3}-[0-9]{4}$`), each
    /// unit's bit words: an ASCII text matches when it has a byte per entry, each among its
    /// entry's (see ``SequenceMatcher/matchesWhole(_:_:)``); `nil` for any other program
    /// (kept, see Benchmarks/Gate/kept-shortcuts.md).
    let wholeASCIIUnits: [(low: UInt64, high: UInt64)]?
    /// Registers a backtracking run needs: two per capture group (numbered from 1; slots 0 and 1 are
    /// unused), then one per optional iteration. Zero for a linear program.
    let registerCount: Int

    /// Compiles `node` for the backtracking matcher when `backtracking`, else for the Pike matcher;
    /// fails with `.budgetExceeded` when the program would hold `maxSize` instructions or more, before
    /// building any of it.
    init(_ node: PatternNode, sets: [CodePointSet], captureCount: Int, backtracking: Bool,
         maxSize: Int) throws(PatternError) {
        let size = PatternProgram.size(of: node, backtracking: backtracking, limit: maxSize)
        guard size < maxSize else {
            throw PatternError(code: .budgetExceeded,
                               message: "the compiled pattern would exceed \(maxSize) instructions", offset: nil)
        }
        self.init(node, sets: sets, captureCount: captureCount, backtracking: backtracking, reserving: size + 1)
    }

    /// Compiles `node` without a size limit (the tests' and fuzzer's backtracking run of a linear pattern).
    init(_ node: PatternNode, sets: [CodePointSet], captureCount: Int, backtracking: Bool, reserving: Int = 0) {
        var builder = Builder(backtracking: backtracking, nextRegister: backtracking ? 2 * (captureCount + 1) : 0)
        builder.instructions.reserveCapacity(reserving)
        builder.emit(node)
        builder.instructions.append(.match)
        instructions = builder.instructions
        self.sets = sets
        isAnchoredAtStart = node.isAnchoredAtStart
        isBacktracking = backtracking
        registerCount = builder.nextRegister
        isSequence = !backtracking && builder.instructions.allSatisfy { instruction in
            switch instruction {
            case .unit, .set, .assertion, .match: true
            default: false
            }
        }
        asciiSteps = isSequence ? builder.instructions.map { SequenceMatcher.ASCIIStep($0, sets: sets) } : []
        wholeASCIIUnits = SequenceMatcher.wholeUnits(asciiSteps)
    }

    /// The instruction count of `node` as `Builder` emits it, saturating just above `limit`.
    private static func size(of node: PatternNode, backtracking: Bool, limit: Int) -> Int {
        let cap = limit + 1
        func bounded(_ value: Int) -> Int { min(value, cap) }
        func size(_ node: PatternNode) -> Int {
            PatternProgram.size(of: node, backtracking: backtracking, limit: limit)
        }
        switch node {
        case .empty: return 0
        case .unit, .set, .assertion, .backreference: return 1
        case .lookaround(let node, _, _): return bounded(size(node) + 2)
        case .concatenation(let nodes):
            return nodes.reduce(0) { bounded($0 + size($1)) }
        case .alternation(let nodes):
            return nodes.reduce(0) { bounded($0 + size($1) + 2) }
        case .group(let node, _):
            return backtracking ? bounded(size(node) + 2) : size(node)
        case .repetition(let node, let minimum, let maximum, _) where backtracking:
            let body = size(node) + 4
            let required = minimum.multipliedReportingOverflow(by: body)
            let optional = ((maximum ?? (minimum + 1)) - minimum).multipliedReportingOverflow(by: body + 1)
            guard !required.overflow, !optional.overflow else { return cap }
            return bounded(required.partialValue + optional.partialValue)
        case .repetition(let node, let minimum, let maximum, _):
            let body = size(node)
            let required = body == 0 ? 0 : bounded(minimum.multipliedReportingOverflow(by: body).overflow
                                                    ? cap : minimum * body)
            guard let maximum else { return bounded(required + body + 2) }
            let optionalCount = maximum - minimum
            let optional = optionalCount.multipliedReportingOverflow(by: body + 1)
            return bounded(required + (optional.overflow ? cap : min(optional.partialValue, cap)))
        }
    }

    private struct Builder {
        let backtracking: Bool
        var instructions: [Instruction] = []
        var nextRegister: Int

        init(backtracking: Bool, nextRegister: Int) {
            self.backtracking = backtracking
            self.nextRegister = nextRegister
        }

        /// Emits a placeholder to patch once its targets are known.
        mutating func placeholder() -> Int {
            instructions.append(.match)
            return instructions.count - 1
        }

        mutating func emit(_ node: PatternNode) {
            switch node {
            case .empty: break
            case .unit(let unit): instructions.append(.unit(unit))
            case .set(let index): instructions.append(.set(index))
            case .assertion(let assertion): instructions.append(.assertion(assertion))
            case .backreference(let group): instructions.append(.backreference(group))
            case .group(let node, let capture):
                let capture = backtracking ? capture : nil
                if let capture { instructions.append(.save(2 * capture)) }
                emit(node)
                if let capture { instructions.append(.save(2 * capture + 1)) }
            case .concatenation(let nodes):
                for node in nodes { emit(node) }
            case .alternation(let nodes):
                // split L1, next; L1: a; jump end; next: split L2, … ; the last branch falls through.
                var jumps: [Int] = []
                for (index, branch) in nodes.enumerated() {
                    if index == nodes.count - 1 {
                        emit(branch)
                    } else {
                        let split = placeholder()
                        emit(branch)
                        jumps.append(placeholder())
                        instructions[split] = .split(split + 1, instructions.count)
                    }
                }
                for jump in jumps { instructions[jump] = .jump(instructions.count) }
            case .lookaround(let body, let ahead, let negated):
                let start = placeholder()
                emit(body)
                instructions.append(.lookaroundEnd)
                instructions[start] = .lookaround(ahead: ahead, negated: negated, next: instructions.count)
            case .repetition(let body, let minimum, nil, _) where minimum > 0 && !backtracking:
                // The last required copy loops: body; split body, end.
                for _ in 1..<minimum { emit(body) }
                let loop = instructions.count
                emit(body)
                instructions.append(.split(loop, instructions.count + 1))
            case .repetition(let body, let minimum, let maximum, let greedy):
                for _ in 0..<minimum {
                    emitClear(body)
                    emit(body)
                }
                if let maximum {
                    // Each optional copy: split body, end.
                    var splits: [Int] = []
                    for _ in minimum..<maximum {
                        splits.append(placeholder())
                        emitIteration(body)
                    }
                    for split in splits { instructions[split] = branch(split, greedy: greedy) }
                } else {
                    // loop: split body, end; body; jump loop.
                    let loop = placeholder()
                    emitIteration(body)
                    instructions.append(.jump(loop))
                    instructions[loop] = branch(loop, greedy: greedy)
                }
            }
        }

        /// One optional iteration; on the backtracking path it must consume something, as ECMA's
        /// RepeatMatcher requires (the Pike matcher visits each state once per position instead).
        private mutating func emitIteration(_ body: PatternNode) {
            guard backtracking else { return emit(body) }
            let register = nextRegister
            nextRegister += 1
            instructions.append(.save(register))
            emitClear(body)
            emit(body)
            instructions.append(.requireProgress(register))
        }

        /// Clears the captures inside `body` when it has any, on the backtracking path.
        private mutating func emitClear(_ body: PatternNode) {
            if backtracking, let captures = body.captureRange {
                instructions.append(.clearCaptures(first: captures.lowerBound, last: captures.upperBound))
            }
        }

        /// The split at `index` into its iteration (next) and the exit (the end so far). Order only
        /// matters to the backtracking matcher, so the linear program always puts the iteration first.
        private func branch(_ index: Int, greedy: Bool) -> Instruction {
            greedy || !backtracking ? .split(index + 1, instructions.count) : .split(instructions.count, index + 1)
        }
    }
}
