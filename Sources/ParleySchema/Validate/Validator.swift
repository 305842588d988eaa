import Parley

/// One validation run over a ``Program``: walks the instance and the compiled keywords together,
/// counting work and depth, and recording failures when asked.
struct Validator {
    /// The program; the steps and node heads every node reads are copied out of it (the rest is
    /// read through it, one retain fewer each per validation).
    let program: Program
    let steps: [Step]
    let heads: [NodeHead]
    let limits: JSONSchema.Limits
    let options: JSONSchema.ValidationOptions
    let stopsAtFirstFailure: Bool
    let usesDynamicScope: Bool
    var recording: Bool
    var errors: [ValidationError] = []
    var work = 0
    var depth = 0
    var instanceDepth = 0
    var instancePath: [PathToken] = []
    var keywordPath: [PathToken] = []
    var dynamicScope: [Int] = []
    var discriminating: [(node: Int, depth: Int)] = []

    init(program: Program, limits: JSONSchema.Limits, options: JSONSchema.ValidationOptions) {
        self.program = program
        self.steps = program.steps
        self.heads = program.heads
        self.limits = limits
        self.options = options
        self.stopsAtFirstFailure = options.mode == .flag
        self.usesDynamicScope = program.usesDynamicScope
        self.recording = options.recordsErrors
    }

    mutating func run<I: SchemaInstance>(_ instance: I) throws(SchemaError) -> Bool {
        var evaluated = Evaluated()
        return try validate(program.root, instance, &evaluated, collect: false)
    }

    // MARK: - Nodes

    mutating func validate<I: SchemaInstance>(
        _ index: Int, _ instance: I, _ evaluated: inout Evaluated,
        collect: Bool
    ) throws(SchemaError) -> Bool {
        let entryDepth = depth
        defer { depth = entryDepth }
        var index = index
        var head: NodeHead
        // A node that is only a `$ref`, when nothing is recorded, collected or scoped, hands the
        // instance to its target as the step would: the same verdict, work and depth, without
        // dispatching the step or entering this function again (kept, see
        // Benchmarks/Gate/kept-shortcuts.md).
        while true {
            // Both are checked against their limits at once, so they cannot overflow: the
            // additions need no overflow check (kept, see Benchmarks/Gate/kept-shortcuts.md).
            work &+= 1
            depth &+= 1
            if work > limits.maxWork {
                throw SchemaError(
                    code: .limitExceeded, message: "validation exceeded \(limits.maxWork) steps", limit: "maxWork")
            }
            if depth > limits.maxDepth {
                throw SchemaError(
                    code: .limitExceeded, message: "validation nested deeper than \(limits.maxDepth)",
                    schemaLocation: program.nodes[index].location, limit: "maxDepth")
            }
            head = heads[index]
            guard head.soleReference >= 0 && !recording && !collect && !usesDynamicScope else { break }
            index = Int(head.soleReference)
        }
        if head.isEmpty { return true }
        // An object a JSON text's tape holds is validated on the tape (neither coercion nor tags
        // apply to objects). Otherwise the instance is replaced only when coerced or untagged, and
        // passed on as it came, not copied into a variable first.
        if let view = instance.tapeView {
            return try check(head, node: index, view, &evaluated, collect: collect)
        }
        if options.coercesStrings, let text = instance.text {
            let types = head.types
            if !types.isEmpty, !types.contains(.string), let coerced = Coercion.coerce(text, to: types) {
                return try check(head, node: index, coerced, &evaluated, collect: collect)
            }
        } else if let inner = instance.untagged {
            return try check(head, node: index, inner, &evaluated, collect: collect)
        }
        return try check(head, node: index, instance, &evaluated, collect: collect)
    }

    /// The node's keywords (its `type` when it checks it, then its steps) against an instance
    /// already coerced or untagged, in the node's dynamic scope and collecting what it evaluated
    /// when it has `unevaluated*` keywords.
    mutating func check<I: SchemaInstance>(
        _ head: NodeHead, node index: Int, _ instance: I, _ evaluated: inout Evaluated,
        collect: Bool
    ) throws(SchemaError) -> Bool {
        var pushedScope = false
        if usesDynamicScope, dynamicScope.last != program.nodes[index].resource {
            dynamicScope.append(program.nodes[index].resource)
            pushedScope = true
        }
        defer { if pushedScope { dynamicScope.removeLast() } }
        if head.collectsEvaluated && !collect {
            var local = Evaluated()
            return try check(head, index, instance, &local, collecting: true)
        }
        return try check(head, index, instance, &evaluated, collecting: collect)
    }

    mutating func check<I: SchemaInstance>(
        _ head: NodeHead, _ index: Int, _ instance: I, _ evaluated: inout Evaluated,
        collecting: Bool
    ) throws(SchemaError) -> Bool {
        var valid = true
        if head.checksType && !instance.hasType(among: head.types) {
            valid = failType(index, instance, head.types)
            if stopsAtFirstFailure || !recording { return false }
        }
        for position in Int(head.start)..<Int(head.end) {
            if try !check(steps[position], index, instance, &evaluated, collecting: collecting) {
                valid = false
                if stopsAtFirstFailure || !recording { return false }
            }
        }
        return valid
    }

    // MARK: - Failures

    /// Records a failure of `keyword` (with extra schema path tokens) and returns `false`.
    mutating func fail(_ index: Int, _ keyword: String, _ message: @autoclosure () -> String) -> Bool {
        guard recording, errors.count < limits.maxErrors else { return false }
        let relative = "/" + keyword
        errors.append(
            ValidationError(
                instanceLocation: PathToken.pointer(instancePath),
                keywordLocation: PathToken.pointer(keywordPath) + relative,
                absoluteKeywordLocation: program.nodes[index].location + relative,
                message: message()))
        return false
    }

    /// Records that `instance`, of `kind`, is not of `types` (the `type` keyword), and returns `false`.
    mutating func failType<I: SchemaInstance>(
        _ index: Int, _ instance: I, _ types: TypeSet, kind: InstanceKind? = nil
    ) -> Bool {
        fail(index, "type", "\(kind ?? instance.kind) is not of type \(types.names.joined(separator: ", "))")
    }

    /// Validates a subschema reached through `keyword` (and `token`) at the same instance.
    mutating func inPlace<I: SchemaInstance>(
        _ child: Int, _ instance: I, _ keyword: String, _ token: PathToken? = nil,
        _ evaluated: inout Evaluated, collecting: Bool
    ) throws(SchemaError) -> Bool {
        if recording {
            keywordPath.append(.key(keyword))
            if let token { keywordPath.append(token) }
        }
        defer {
            if recording {
                keywordPath.removeLast()
                if token != nil { keywordPath.removeLast() }
            }
        }
        var sub = Evaluated()
        let valid = try validate(child, instance, &sub, collect: collecting)
        if valid && collecting { evaluated.merge(sub) }
        return valid
    }

    /// Validates a member or element `step` of the instance against a subschema. The path
    /// tokens are made only when failures are recorded (a member name read from a tape is
    /// then made a string).
    mutating func descend<I: SchemaInstance>(
        _ child: Int, _ value: I, _ step: @autoclosure () -> PathToken, _ keyword: String,
        _ token: @autoclosure () -> PathToken? = nil
    ) throws(SchemaError) -> Bool {
        guard recording else {
            instanceDepth &+= 1
            defer { instanceDepth &-= 1 }
            var unused = Evaluated()
            return try validate(child, value, &unused, collect: false)
        }
        let token = token()
        keywordPath.append(.key(keyword))
        if let token { keywordPath.append(token) }
        instancePath.append(step())
        instanceDepth += 1
        defer {
            instanceDepth -= 1
            keywordPath.removeLast()
            if token != nil { keywordPath.removeLast() }
            instancePath.removeLast()
        }
        var unused = Evaluated()
        return try validate(child, value, &unused, collect: false)
    }

    /// Runs `body` without recording failures (for `not`, `if`, `contains`, whose failures are not errors).
    mutating func quietly<T>(_ body: (inout Validator) throws(SchemaError) -> T) throws(SchemaError) -> T {
        let saved = recording
        recording = false
        defer { recording = saved }
        return try body(&self)
    }
}
