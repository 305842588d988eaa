/// A pattern with lookarounds or backreferences compiled for `BacktrackingMatcher`: like
/// `PatternProgram`, plus capture slots, empty-iteration checks and lookaround sub-programs.
struct BacktrackingProgram: Sendable {
    enum Instruction: Sendable {
        case unit(UInt32)
        case set(Int)
        /// Tries the first target, then the second on failure.
        case split(Int, Int)
        case jump(Int)
        case assertion(PatternAssertion)
        /// Stores the position in a register (capture bounds and loop-entry positions).
        case save(Int)
        /// Forgets the captures of groups `first...last`: ECMA clears a quantified group's inner
        /// captures at the start of each iteration.
        case clearCaptures(first: Int, last: Int)
        /// Fails when the position equals the register: ECMA ends a loop whose iteration matched
        /// nothing.
        case requireProgress(Int)
        /// Matches the text group `n` captured (nothing when it did not participate).
        case backreference(Int)
        /// Runs the sub-program from the next instruction to its `lookaroundEnd`, then continues at
        /// `next` when its outcome (negated or not) holds.
        case lookaround(ahead: Bool, negated: Bool, next: Int)
        case lookaroundEnd
        case match
    }

    let instructions: [Instruction]
    /// Two per capture group (numbered from 1; slots 0 and 1 are unused), then one per loop.
    let registerCount: Int
    let isAnchoredAtStart: Bool

    init(_ node: PatternNode, captureCount: Int) {
        var builder = Builder(nextRegister: 2 * (captureCount + 1))
        builder.emit(node)
        builder.instructions.append(.match)
        instructions = builder.instructions
        registerCount = builder.nextRegister
        isAnchoredAtStart = node.isAnchoredAtStart
    }

    /// The instruction count of `node`, saturating just above `limit` (each node counted with its
    /// saves, checks and lookaround ends).
    static func size(of node: PatternNode, limit: Int) -> Int {
        let cap = limit + 1
        func bounded(_ value: Int) -> Int { min(value, cap) }
        switch node {
        case .empty: return 0
        case .unit, .set, .assertion, .backreference: return 1
        case .lookaround(let node, _, _): return bounded(size(of: node, limit: limit) + 2)
        case .concatenation(let nodes):
            return nodes.reduce(0) { bounded($0 + size(of: $1, limit: limit)) }
        case .alternation(let nodes):
            return nodes.reduce(0) { bounded($0 + size(of: $1, limit: limit) + 2) }
        case .group(let node, _):
            return bounded(size(of: node, limit: limit) + 2)
        case .repetition(let node, let minimum, let maximum, _):
            let body = size(of: node, limit: limit) + 4
            let required = minimum.multipliedReportingOverflow(by: body)
            let optional = ((maximum ?? (minimum + 1)) - minimum).multipliedReportingOverflow(by: body + 1)
            guard !required.overflow, !optional.overflow else { return cap }
            return bounded(required.partialValue + optional.partialValue)
        }
    }

    private struct Builder {
        var instructions: [Instruction] = []
        var nextRegister: Int

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
                if let capture { instructions.append(.save(2 * capture)) }
                emit(node)
                if let capture { instructions.append(.save(2 * capture + 1)) }
            case .concatenation(let nodes):
                for node in nodes { emit(node) }
            case .alternation(let nodes):
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
            case .repetition(let body, let minimum, let maximum, let greedy):
                for _ in 0..<minimum {
                    emitClear(body)
                    emit(body)
                }
                if let maximum {
                    var splits: [Int] = []
                    for _ in minimum..<maximum {
                        splits.append(placeholder())
                        emitIteration(body)
                    }
                    for split in splits { instructions[split] = branch(split, greedy: greedy) }
                } else {
                    let loop = placeholder()
                    emitIteration(body)
                    instructions.append(.jump(loop))
                    instructions[loop] = branch(loop, greedy: greedy)
                }
            }
        }

        /// One optional iteration: it must consume something, as ECMA's RepeatMatcher requires.
        private mutating func emitIteration(_ body: PatternNode) {
            let register = nextRegister
            nextRegister += 1
            instructions.append(.save(register))
            emitClear(body)
            emit(body)
            instructions.append(.requireProgress(register))
        }

        /// Clears the captures inside `body` when it has any.
        private mutating func emitClear(_ body: PatternNode) {
            if let captures = body.captureRange {
                instructions.append(.clearCaptures(first: captures.lowerBound, last: captures.upperBound))
            }
        }

        /// The split at `index` into its iteration (next) and the exit (the end so far).
        private func branch(_ index: Int, greedy: Bool) -> Instruction {
            greedy ? .split(index + 1, instructions.count) : .split(instructions.count, index + 1)
        }
    }
}
