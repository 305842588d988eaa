import ParleySchema

// JSON Schema `pattern`s (ECMAPattern): the ReDoS shapes that take a backtracking engine
// exponential time, against runs of `a` that almost match.

let patternWorkloads: [Workload] = [
    // `(a+)+$` against a…a! : the classic catastrophic-backtracking shape.
    Workload("pattern.nested-plus", unit: "characters", count: 25_000) { n in
        let pattern = try! ECMAPattern("(a+)+$", unicode: true)
        let text = String(repeating: "a", count: n) + "!"
        return { keep(try pattern.matches(text)) }
    },
    // `(a|a)*b`: two alternatives for every character.
    Workload("pattern.ambiguous-alternation", unit: "characters", count: 25_000) { n in
        let pattern = try! ECMAPattern("(a|a)*b", unicode: true)
        let text = String(repeating: "a", count: n)
        return { keep(try pattern.matches(text)) }
    },
    // `^(\w+\s?)*$` on a word run without a final space, without the `u` flag (UTF-16 units).
    Workload("pattern.words-and-spaces", unit: "characters", count: 25_000) { n in
        let pattern = try! ECMAPattern("^(\\w+\\s?)*$", unicode: false)
        let text = String(repeating: "ab ", count: n / 3) + "!"
        return { keep(try pattern.matches(text)) }
    },
]
