import Parley

extension Validator {
    /// Checks one step against `instance`: the keywords a ``Step`` holds, or the node's keyword it
    /// points to.
    mutating func check<I: SchemaInstance>(
        _ step: Step, _ index: Int, _ instance: I, _ evaluated: inout Evaluated,
        collecting: Bool
    ) throws(SchemaError) -> Bool {
        switch step {
        case .keyword(let position):
            return try check(
                program.nodes[index].keywords[position], index, instance, &evaluated, collecting: collecting)
        case .type(let types, let strictIntegers):
            guard strictIntegers else { return instance.hasType(among: types) || failType(index, instance, types) }
            var kind = instance.kind
            if kind == .integer {
                let value = instance.value
                if case .float = value { kind = .number }
                if case .number(let text) = value, text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
                    kind = .number
                }
            }
            return types.admits(kind) || failType(index, instance, types, kind: kind)
        case .maxLength(let n):
            // A code point takes at least 1 UTF-8 byte, so few enough bytes need no counting.
            guard let bytes = instance.schemaStringByteCount, bytes > n, let length = instance.schemaStringLength
            else { return true }
            return length <= n || fail(index, "maxLength", "the string has \(length) characters, more than \(n)")
        case .minLength(let n):
            // A code point takes at most 4 UTF-8 bytes, so enough bytes need no counting.
            guard let bytes = instance.schemaStringByteCount, (bytes + 3) / 4 < n,
                  let length = instance.schemaStringLength
            else { return true }
            return length >= n || fail(index, "minLength", "the string has \(length) characters, fewer than \(n)")
        case .maxItems(let n):
            guard let count = instance.elementCount else { return true }
            return count <= n || fail(index, "maxItems", "the array has \(count) items, more than \(n)")
        case .minItems(let n):
            guard let count = instance.elementCount else { return true }
            return count >= n || fail(index, "minItems", "the array has \(count) items, fewer than \(n)")
        case .maxProperties(let n):
            guard let count = instance.memberCount else { return true }
            return count <= n || fail(index, "maxProperties", "the object has more than \(n) properties")
        case .minProperties(let n):
            guard let count = instance.memberCount else { return true }
            return count >= n || fail(index, "minProperties", "the object has fewer than \(n) properties")
        case .ref(let target, let dynamic):
            let name = dynamic ? "$dynamicRef" : "$ref"
            return try inPlace(target, instance, name, nil, &evaluated, collecting: collecting)
        case .items(let child, let start, let additional):
            guard let count = instance.elementCount else { return true }
            var valid = true
            let name = additional ? "additionalItems" : "items"
            if start < count {
                let finished = try instance.forEachElement { (i, element) throws(SchemaError) -> Bool in
                    if i < start { return true }
                    if try !descend(child, element, .index(i), name) {
                        valid = false
                        if !recording || stopsAtFirstFailure { return false }
                    }
                    return true
                }
                if !finished { return false }
            }
            if collecting { evaluated.allItems = true }
            return valid
        case .readOnly:
            return options.direction != .request
                || fail(index, "readOnly", "a readOnly value must not be sent in a request")
        case .writeOnly:
            return options.direction != .response
                || fail(index, "writeOnly", "a writeOnly value must not be sent in a response")
        case .bound(let entry):
            // A number out of bounds, or one the step cannot order, is the keyword's to judge.
            let bound = program.bounds[entry]
            if let number = instance.binaryNumber, bound.admits(number) == true { return true }
            return try check(program.nodes[index].keywords[bound.position], index, instance, &evaluated,
                             collecting: collecting)
        case .object(let entry):
            guard let count = instance.memberCount else { return true }
            return try checkObject(
                program.applicators[entry], index, instance, count: count, &evaluated, collecting: collecting)
        case .wholePattern(let entry):
            // A byte outside ASCII is in no unit (its word is empty): the keyword decides.
            let (start, count, position) = program.wholePatterns[entry]
            if let bytes = instance.schemaStringUTF8, bytes.count == count {
                let patternWords = program.patternWords
                var matched = true
                var unit = start &* 4
                for byte in bytes {
                    let word = patternWords[unit &+ Int(byte &>> 6)]
                    unit &+= 4
                    if word &>> UInt64(byte & 63) & 1 == 0 {
                        matched = false
                        break
                    }
                }
                if matched { return true }
            }
            return try check(
                program.nodes[index].keywords[position], index, instance, &evaluated, collecting: collecting)
        }
    }
}

extension Validator {
    /// Checks one keyword against `instance`.
    mutating func check<I: SchemaInstance>(
        _ keyword: Keyword, _ index: Int, _ instance: I, _ evaluated: inout Evaluated,
        collecting: Bool
    ) throws(SchemaError) -> Bool {
        switch keyword {
        case .type, .maxLength, .minLength, .maxItems, .minItems, .maxProperties, .minProperties, .ref, .items,
            .readOnly, .writeOnly:
            // A ``Step`` holds these keywords inline and checks them.
            return try check(Step(keyword, at: 0), index, instance, &evaluated, collecting: collecting)
        case .alwaysFalse:
            return fail(index, "", "no value is valid here")
        case .enumeration(let values, let set):
            let value = instance.value
            if let set {
                if set.contains(JSONKey(value: value)) { return true }
            } else if values.contains(where: { JSONEquality.equal($0, value) }) {
                return true
            }
            return fail(index, "enum", "the value is not one of the \(values.count) allowed")
        case .const(let value):
            return JSONEquality.equal(value, instance.value) || fail(index, "const", "the value is not the constant")
        case .multipleOf(let divisor, let double):
            guard let number = instance.scalar else { return true }
            return checkMultipleOf(number, divisor, double)
                || fail(index, "multipleOf", "not a multiple of \(double)")
        case .maximum(let limit, let exclusive, let name):
            guard let number = instance.scalar, let order = Self.compare(number, limit) else { return true }
            if order < 0 || (order == 0 && !exclusive) { return true }
            return fail(index, name, "the number is above \(exclusive ? "or equal to " : "")the maximum")
        case .minimum(let limit, let exclusive, let name):
            guard let number = instance.scalar, let order = Self.compare(number, limit) else { return true }
            if order > 0 || (order == 0 && !exclusive) { return true }
            return fail(index, name, "the number is below \(exclusive ? "or equal to " : "")the minimum")
        case .pattern(let pattern, let source):
            let matched: Bool
            if let bytes = instance.schemaStringUTF8, let outcome = try matches(pattern, utf8: bytes) {
                matched = outcome
            } else {
                guard let text = instance.schemaString else { return true }
                matched = try matches(pattern, text)
            }
            return matched || fail(index, "pattern", "the string does not match \(source)")
        case .format(let kind, let name):
            guard let scalar = instance.scalar else { return true }
            return kind.accepts(scalar) || fail(index, "format", "the value is not a valid \(name)")
        case .uniqueItems:
            guard instance.elementCount != nil, case .array(let elements) = instance.value else { return true }
            work += elements.count
            return Self.allUnique(elements) || fail(index, "uniqueItems", "the array has equal items")
        case .required(let names):
            guard let count = instance.memberCount else { return true }
            return checkRequired(names, instance, count: count, index)
        case .requiredUnlessDirection(let names):
            guard instance.memberCount != nil else { return true }
            var valid = true
            for (name, skipped) in names where options.direction != skipped && !instance.containsMember(named: name) {
                valid = fail(index, "required", "the required property \"\(name)\" is missing")
                if !recording || stopsAtFirstFailure { return false }
            }
            return valid
        case .dependentRequired(let pairs, let name):
            guard instance.memberCount != nil else { return true }
            var valid = true
            for (key, names) in pairs where instance.containsMember(named: key) {
                for required in names where !instance.containsMember(named: required) {
                    valid = fail(index, name, "\"\(key)\" requires \"\(required)\"")
                    if !recording || stopsAtFirstFailure { return false }
                }
            }
            return valid
        case .dependentSchemas(let pairs, let name):
            guard instance.memberCount != nil else { return true }
            var valid = true
            for (key, child) in pairs where instance.containsMember(named: key) {
                if try !inPlace(child, instance, name, .key(key), &evaluated, collecting: collecting) {
                    valid = false
                    if !recording || stopsAtFirstFailure { return false }
                }
            }
            return valid
        case .object(let applicator):
            guard let count = instance.memberCount else { return true }
            return try checkObject(applicator, index, instance, count: count, &evaluated, collecting: collecting)
        case .propertyNames(let child):
            return try instance.forEachMember { (name, _) throws(SchemaError) -> Bool in
                var unused = Evaluated()
                return try inPlace(child, Value.string(name.string), "propertyNames", nil, &unused, collecting: false)
            }
        case .prefixItems(let children, let name):
            guard let count = instance.elementCount else { return true }
            var valid = true
            let end = min(count, children.count)
            var stopped = false
            _ = try instance.forEachElement { (i, element) throws(SchemaError) -> Bool in
                if i >= end { return false }
                if try !descend(children[i], element, .index(i), name, .index(i)) {
                    valid = false
                    if !recording || stopsAtFirstFailure {
                        stopped = true
                        return false
                    }
                }
                return true
            }
            if stopped { return false }
            if collecting { evaluated.itemsPrefix = max(evaluated.itemsPrefix, end) }
            return valid
        case .contains(let child, let minimum, let maximum):
            guard instance.elementCount != nil else { return true }
            var matched = 0
            _ = try instance.forEachElement { (i, element) throws(SchemaError) -> Bool in
                let ok = try quietly { (v: inout Validator) throws(SchemaError) in
                    try v.descend(child, element, .index(i), "contains")
                }
                if ok {
                    matched += 1
                    if collecting { evaluated.insert(item: i) }
                    if !collecting && maximum == nil && matched >= minimum { return false }
                }
                return true
            }
            if matched < minimum {
                return fail(
                    index, minimum == 1 ? "contains" : "minContains",
                    "\(matched) items match contains, fewer than \(minimum)")
            }
            if let maximum, matched > maximum {
                return fail(index, "maxContains", "\(matched) items match contains, more than \(maximum)")
            }
            return true
        case .allOf(let children):
            var valid = true
            for (i, child) in children.enumerated() {
                if try !inPlace(child, instance, "allOf", .index(i), &evaluated, collecting: collecting) {
                    valid = false
                    if !recording || stopsAtFirstFailure { return false }
                }
            }
            return valid
        case .anyOf(let children):
            let mark = errors.count
            var any = false
            for (i, child) in children.enumerated() {
                if try inPlace(child, instance, "anyOf", .index(i), &evaluated, collecting: collecting) {
                    any = true
                    if !collecting { break }
                }
            }
            if any {
                errors.removeSubrange(mark...)
                return true
            }
            return fail(index, "anyOf", "the value matches none of the anyOf schemas")
        case .oneOf(let children):
            let mark = errors.count
            var matches: [Int] = []
            var sub = Evaluated()
            for (i, child) in children.enumerated() {
                var branch = Evaluated()
                if try inPlace(child, instance, "oneOf", .index(i), &branch, collecting: collecting) {
                    matches.append(i)
                    sub = branch
                    if matches.count > 1 { break }
                }
            }
            if matches.count == 1 {
                errors.removeSubrange(mark...)
                if collecting { evaluated.merge(sub) }
                return true
            }
            if matches.isEmpty { return fail(index, "oneOf", "the value matches none of the oneOf schemas") }
            errors.removeSubrange(mark...)
            return fail(index, "oneOf", "the value matches oneOf schemas \(matches[0]) and \(matches[1])")
        case .not(let child):
            var unused = Evaluated()
            let matched = try quietly { (v: inout Validator) throws(SchemaError) in
                try v.inPlace(child, instance, "not", nil, &unused, collecting: false)
            }
            return !matched || fail(index, "not", "the value matches the schema it must not")
        case .ifThenElse(let condition, let then, let otherwise):
            var sub = Evaluated()
            let holds = try quietly { (v: inout Validator) throws(SchemaError) in
                try v.inPlace(condition, instance, "if", nil, &sub, collecting: collecting)
            }
            if holds {
                if collecting { evaluated.merge(sub) }
                guard let then else { return true }
                return try inPlace(then, instance, "then", nil, &evaluated, collecting: collecting)
            }
            guard let otherwise else { return true }
            return try inPlace(otherwise, instance, "else", nil, &evaluated, collecting: collecting)
        case .dynamicRef(let name, let fallback):
            var target = fallback
            for resource in dynamicScope {
                if let anchored = program.dynamicAnchors[resource][name] {
                    target = anchored
                    break
                }
            }
            return try inPlace(target, instance, "$dynamicRef", nil, &evaluated, collecting: collecting)
        case .discriminator(let discriminator):
            return try checkDiscriminator(discriminator, index, instance, &evaluated, collecting: collecting)
        case .unevaluatedItems(let child):
            guard instance.elementCount != nil else { return true }
            var valid = true
            if !evaluated.allItems {
                let prefix = evaluated.itemsPrefix
                let items = evaluated.items
                let finished = try instance.forEachElement { (i, element) throws(SchemaError) -> Bool in
                    if i < prefix || items.contains(i) { return true }
                    if try !descend(child, element, .index(i), "unevaluatedItems") {
                        valid = false
                        if !recording || stopsAtFirstFailure { return false }
                    }
                    return true
                }
                if !finished { return false }
            }
            evaluated.allItems = true
            return valid
        case .unevaluatedProperties(let child):
            guard instance.memberCount != nil else { return true }
            var valid = true
            if !evaluated.allProperties {
                let properties = evaluated.properties
                let finished = try instance.forEachMember { (name, member) throws(SchemaError) -> Bool in
                    let key = name.string
                    if properties.contains(key) { return true }
                    if try !descend(child, member, .key(key), "unevaluatedProperties") {
                        valid = false
                        if !recording || stopsAtFirstFailure { return false }
                    }
                    return true
                }
                if !finished { return false }
            }
            evaluated.allProperties = true
            return valid
        }
    }

    /// `required`: whether every name is a member of an object of `count` members, recording
    /// each missing one.
    mutating func checkRequired<I: SchemaInstance>(_ names: [String], _ object: I, count: Int, _ index: Int) -> Bool {
        var valid = true
        if names.count * count > 1_024 {
            // Many names against many members: one set of the keys instead of a scan per name
            // (below that, scanning allocates nothing and costs less than building the set).
            work += count
            var keys = Set<String>(minimumCapacity: count)
            _ = object.forEachMember { (name, _) -> Bool in
                keys.insert(name.string)
                return true
            }
            for name in names where !keys.contains(name) {
                valid = fail(index, "required", "the required property \"\(name)\" is missing")
                if !recording || stopsAtFirstFailure { return false }
            }
            return valid
        }
        for name in names where !object.containsMember(named: name) {
            valid = fail(index, "required", "the required property \"\(name)\" is missing")
            if !recording || stopsAtFirstFailure { return false }
        }
        return valid
    }

    mutating func checkObject<I: SchemaInstance>(
        _ applicator: ObjectApplicator, _ index: Int, _ object: I, count: Int, _ evaluated: inout Evaluated,
        collecting: Bool
    ) throws(SchemaError) -> Bool {
        var valid = true
        // A folded `required`: when failures are recorded it is checked first, by name, so its
        // errors come where the separate keyword put them; otherwise the member pass marks it.
        let marksRequired = !applicator.required.isEmpty && !recording
        if !applicator.required.isEmpty && recording {
            valid = checkRequired(applicator.required, object, count: count, index)
            if !valid && stopsAtFirstFailure { return false }
        } else if marksRequired && applicator.required.count * count > 1_024 {
            work += count
        }
        var seen: UInt64 = 0
        do {
            valid = try checkMembers(applicator, object, &evaluated, collecting: collecting, marking: &seen) && valid
        } catch {
            // The separate keyword came first: a missing name made the object invalid before any
            // member could throw.
            if marksRequired && !checkRequired(applicator.required, object, count: count, index) { return false }
            throw error
        }
        if marksRequired {
            let count = applicator.required.count
            let all: UInt64 = count == 64 ? ~0 : (1 << UInt64(count)) - 1
            if seen != all { return false }
        }
        return valid
    }

    /// The members against `properties`, `patternProperties` and `additionalProperties`, marking
    /// in `seen` the bits of the folded `required` names each matched property satisfies.
    mutating func checkMembers<I: SchemaInstance>(
        _ applicator: ObjectApplicator, _ object: I, _ evaluated: inout Evaluated,
        collecting: Bool, marking seen: inout UInt64
    ) throws(SchemaError) -> Bool {
        let marksRequired = !applicator.required.isEmpty && !recording
        var valid = true
        _ = try object.forEachMember { (name, value) throws(SchemaError) -> Bool in
            work &+= 1
            var matched = false
            var propertyNode: Int?
            if let i = name.property(in: applicator) {
                propertyNode = applicator.nodes[i]
                if marksRequired { seen |= applicator.requiredBits[i] }
            }
            if let propertyNode {
                matched = true
                if try !descend(propertyNode, value, .key(name.string), "properties", .key(name.string)) {
                    valid = false
                    if !recording || stopsAtFirstFailure { return false }
                }
            }
            if !applicator.patternProperties.isEmpty {
                let key = name.string
                for pattern in applicator.patternProperties where try matches(pattern.pattern, key) {
                    matched = true
                    if try !descend(pattern.node, value, .key(key), "patternProperties", .key(pattern.source)) {
                        valid = false
                        if !recording || stopsAtFirstFailure { return false }
                    }
                }
            }
            if !matched, let additional = applicator.additional {
                matched = true
                if try !descend(additional, value, .key(name.string), "additionalProperties") {
                    valid = false
                    if !recording || stopsAtFirstFailure { return false }
                }
            }
            if collecting && matched { evaluated.insert(property: name.string) }
            return true
        }
        return valid
    }

    mutating func checkDiscriminator<I: SchemaInstance>(
        _ discriminator: Discriminator, _ index: Int, _ instance: I,
        _ evaluated: inout Evaluated, collecting: Bool
    ) throws(SchemaError) -> Bool {
        guard instance.memberCount != nil else { return true }
        guard let member = instance.member(named: discriminator.propertyName) else {
            return fail(
                index, "discriminator", "the discriminator property \"\(discriminator.propertyName)\" is missing")
        }
        guard case .string(let name) = member.value.schemaView,
            let target = discriminator.choices.first(where: { $0.value == name })?.node ?? discriminator.byName[name]
        else {
            return fail(index, "discriminator", "\"\(discriminator.propertyName)\" selects no schema")
        }
        // A schema that its own discriminator selects (through `allOf`) is checked once.
        if discriminating.contains(where: { $0.node == target && $0.depth == instanceDepth }) { return true }
        discriminating.append((target, instanceDepth))
        defer { discriminating.removeLast() }
        return try inPlace(target, instance, "discriminator", nil, &evaluated, collecting: collecting)
    }

    func matches(_ pattern: ECMAPattern, _ text: String) throws(SchemaError) -> Bool {
        do {
            return try pattern.matches(text)
        } catch {
            throw SchemaError(code: .patternBudgetExceeded, message: error.message)
        }
    }

    /// ``ECMAPattern/matches(utf8:)``: `nil` when the text must be matched as a string.
    func matches(_ pattern: ECMAPattern, utf8 bytes: UnsafeBufferPointer<UInt8>) throws(SchemaError) -> Bool? {
        do {
            return try pattern.matches(utf8: bytes)
        } catch {
            throw SchemaError(code: .patternBudgetExceeded, message: error.message)
        }
    }

    /// The order of a numeric instance against a limit, or `nil` when the instance is not a number.
    /// Integers against integral limits and floats that differ from the limit's nearest `Double`
    /// are ordered without building decimals; only ties and number text go through ``ExactNumber``.
    static func compare(_ instance: Value, _ limit: NumberLimit) -> Int? {
        switch instance {
        case .integer(let i):
            if let bound = limit.integer { return i < bound ? -1 : i > bound ? 1 : 0 }
        case .float(let d):
            if d.isInfinite { return d < 0 ? -1 : 1 }
            if d.isNaN { return nil }
            // Rounding to `Double` is monotonic, so a float other than the limit's nearest
            // `Double` is on the same side of the exact limit.
            if d != limit.double { return d < limit.double ? -1 : 1 }
        case .number: break
        default: return nil
        }
        guard let number = ExactNumber(instance) else { return nil }
        return ExactNumber.compare(number, limit.exact)
    }

    func checkMultipleOf(_ instance: Value, _ divisor: ExactNumber, _ double: Double) -> Bool {
        switch instance {
        case .integer(let i):
            if divisor.isInteger, let d = Int64(exactly: double), d != 0 { return i % d == 0 }
        case .float, .number: break
        default: return true
        }
        guard let number = ExactNumber(instance) else { return true }
        if let exact = number.isMultiple(of: divisor) { return exact }
        guard let x = instance.doubleValue else { return true }
        let quotient = x / double
        return quotient.isFinite && quotient == quotient.rounded()
    }

    static func allUnique(_ elements: [Value]) -> Bool {
        if elements.count <= 16 {
            for i in elements.indices {
                for j in elements.index(after: i)..<elements.endIndex where JSONEquality.equal(elements[i], elements[j])
                {
                    return false
                }
            }
            return true
        }
        var seen = Set<JSONKey>(minimumCapacity: elements.count)
        for element in elements where !seen.insert(JSONKey(value: element)).inserted { return false }
        return true
    }
}
