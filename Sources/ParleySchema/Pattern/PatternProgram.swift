/// A pattern compiled to a Thompson NFA: a flat list of instructions that a `PikeMatcher` runs
/// in one pass over the text, every live state advanced together.
struct PatternProgram: Sendable {
    enum Instruction: Sendable {
        /// Consumes one unit equal to the operand.
        case unit(UInt32)
        /// Consumes one unit of `sets[index]`.
        case set(Int)
        /// Continues at both targets.
        case split(Int, Int)
        case jump(Int)
        /// Continues when the assertion holds at the position.
        case assertion(PatternAssertion)
        case match
    }

    let instructions: [Instruction]
    let sets: [CodePointSet]
    /// Every match starts at the beginning of the text, so later starts need not be tried.
    let isAnchoredAtStart: Bool

    /// Compiles `node`; fails with `.budgetExceeded` when the program would hold more than
    /// `maxSize` instructions, before building any of it.
    init(_ node: PatternNode, sets: [CodePointSet], maxSize: Int) throws(PatternError) {
        let size = PatternProgram.size(of: node, limit: maxSize)
        guard size < maxSize else {
            throw PatternError(code: .budgetExceeded,
                               message: "the compiled pattern would exceed \(maxSize) instructions", offset: nil)
        }
        var builder = Builder()
        builder.reserve(size + 1)
        builder.emit(node)
        builder.append(.match)
        instructions = builder.instructions
        self.sets = sets
        isAnchoredAtStart = node.isAnchoredAtStart
    }

    /// The instruction count of `node`, saturating just above `limit`.
    private static func size(of node: PatternNode, limit: Int) -> Int {
        let cap = limit + 1
        func bounded(_ value: Int) -> Int { min(value, cap) }
        switch node {
        case .empty, .backreference, .lookaround: return 0
        case .unit, .set, .assertion: return 1
        case .concatenation(let nodes):
            return nodes.reduce(0) { bounded($0 + size(of: $1, limit: limit)) }
        case .alternation(let nodes):
            return nodes.reduce(0) { bounded($0 + size(of: $1, limit: limit) + 2) }
        case .group(let node, _):
            return size(of: node, limit: limit)
        case .repetition(let node, let minimum, let maximum, _):
            let body = size(of: node, limit: limit)
            let required = body == 0 ? 0 : bounded(minimum.multipliedReportingOverflow(by: body).overflow
                                                    ? cap : minimum * body)
            guard let maximum else { return bounded(required + body + 2) }
            let optionalCount = maximum - minimum
            let optional = optionalCount.multipliedReportingOverflow(by: body + 1)
            return bounded(required + (optional.overflow ? cap : min(optional.partialValue, cap)))
        }
    }

    private struct Builder {
        var instructions: [Instruction] = []

        mutating func reserve(_ count: Int) { instructions.reserveCapacity(count) }

        mutating func append(_ instruction: Instruction) { instructions.append(instruction) }

        /// Emits a placeholder to patch once its targets are known.
        mutating func placeholder() -> Int {
            instructions.append(.match)
            return instructions.count - 1
        }

        mutating func emit(_ node: PatternNode) {
            switch node {
            case .empty, .backreference, .lookaround:
                break  // the last two only reach here on the backtracking path, which does not run this
            case .unit(let unit): append(.unit(unit))
            case .set(let index): append(.set(index))
            case .assertion(let assertion): append(.assertion(assertion))
            case .group(let node, _): emit(node)
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
            case .repetition(let body, let minimum, nil, _) where minimum > 0:
                // The last required copy loops: body; split body, end.
                for _ in 1..<minimum { emit(body) }
                let loop = instructions.count
                emit(body)
                append(.split(loop, instructions.count + 1))
            case .repetition(let body, let minimum, let maximum, _):
                for _ in 0..<minimum { emit(body) }
                if let maximum {
                    // Each optional copy: split body, end.
                    var splits: [Int] = []
                    for _ in minimum..<maximum {
                        splits.append(placeholder())
                        emit(body)
                    }
                    for split in splits { instructions[split] = .split(split + 1, instructions.count) }
                } else {
                    // loop: split body, end; body; jump loop.
                    let loop = placeholder()
                    emit(body)
                    append(.jump(loop))
                    instructions[loop] = .split(loop + 1, instructions.count)
                }
            }
        }
    }
}
