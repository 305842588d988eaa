extension ECMAPattern {
    /// The bounds that keep compiling and matching a hostile pattern or text safe.
    public struct Limits: Sendable, Hashable {
        /// Instructions the compiled program may hold; counted repetitions are expanded, so
        /// `a{1000}{1000}` needs a million and fails to compile with `.budgetExceeded`.
        public var maxProgramSize: Int
        /// How deeply groups and classes may nest in the pattern.
        public var maxNesting: Int
        /// Work one `matches(_:)` call may do: thread steps of the linear matcher, which needs at
        /// most about (program size × text length) of them.
        public var maxSteps: Int
        /// Work one `matches(_:)` call may do on the backtracking path (patterns with lookarounds
        /// or backreferences), where steps can grow exponentially with the text.
        public var maxBacktrackingSteps: Int

        public init(maxProgramSize: Int = 100_000, maxNesting: Int = 500, maxSteps: Int = 200_000_000,
                    maxBacktrackingSteps: Int = 1_000_000) {
            self.maxProgramSize = maxProgramSize
            self.maxNesting = maxNesting
            self.maxSteps = maxSteps
            self.maxBacktrackingSteps = maxBacktrackingSteps
        }

        /// The defaults: 100,000 instructions, nesting 500, 200 million linear steps, one million
        /// backtracking steps.
        public static let `default` = Limits()
    }
}
