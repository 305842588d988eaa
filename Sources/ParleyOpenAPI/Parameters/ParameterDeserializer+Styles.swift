import Parley

/// The styles, one reader per location. Lists are split at their raw delimiters before
/// percent-decoding, so an escaped delimiter (`%2C`) stays inside its item.
extension ParameterDeserializer {
    /// A path variable's text in `matrix`, `label` or `simple` style.
    func pathValue(_ text: String, kind: SchemaNode.Kind, node: SchemaNode?) throws(DeserializationError) -> Value {
        switch style {
        case .label: return try labelValue(text, kind: kind, node: node)
        case .matrix: return try matrixValue(text, kind: kind, node: node)
        default: return try simpleValue(text, kind: kind, node: node)
        }
    }

    /// `simple` style: `blue`, `blue,black`, `R,100,G,200` or (exploded) `R=100,G=200`. In a
    /// header, the spaces around each item are dropped (an HTTP list).
    func simpleValue(_ text: String, kind: SchemaNode.Kind, node: SchemaNode?) throws(DeserializationError) -> Value {
        let text = location == .header ? text.trimmingCharacters(in: " \t") : Substring(text)
        switch kind {
        case .primitive: return try coerced(try decoded(text), node: node)
        case .array: return try array(items(of: text, separator: ","), node: node)
        case .object:
            let list = items(of: text, separator: ",")
            return try object(explode ? keyedPairs(list) : alternatingPairs(list, text: text), node: node)
        }
    }

    /// `label` style: `.blue`, `.blue.black` and `.R=100.G=200` (exploded), `.blue.black` or
    /// `.blue,black` and `.R.100.G.200` or `.R,100,G,200` (not exploded: OpenAPI's table uses
    /// dots, RFC 6570 commas; a comma in the text selects commas).
    func labelValue(_ text: String, kind: SchemaNode.Kind, node: SchemaNode?) throws(DeserializationError) -> Value {
        guard text.hasPrefix(".") else {
            throw DeserializationError(.missingPrefix, subject: subject, text: text, "a label value starts with '.'")
        }
        let rest = text.dropFirst()
        let separator: Character = explode || !rest.contains(",") ? "." : ","
        switch kind {
        case .primitive: return try coerced(try decoded(rest), node: node)
        case .array: return try array(items(of: rest, separator: separator), node: node)
        case .object:
            let list = items(of: rest, separator: separator)
            return try object(explode ? keyedPairs(list) : alternatingPairs(list, text: text), node: node)
        }
    }

    /// `matrix` style: `;color=blue`, `;color=blue,black`, `;color=R,100,G,200`, or exploded
    /// `;color=blue;color=black` and `;R=100;G=200`. `;color` alone is the empty value.
    func matrixValue(_ text: String, kind: SchemaNode.Kind, node: SchemaNode?) throws(DeserializationError) -> Value {
        guard text.hasPrefix(";") else {
            throw DeserializationError(.missingPrefix, subject: subject, text: text,
                                       "a matrix value starts with ';\(name)'")
        }
        let segments = keyedPairs(text.dropFirst().split(separator: ";", omittingEmptySubsequences: false))
        if kind == .object && explode { return try object(segments, node: node) }
        var values: [Substring] = []
        for (segmentName, value) in segments {
            guard (try? decoded(segmentName)) == name else {
                throw DeserializationError(.missingPrefix, subject: subject, text: text,
                                           "each matrix item must be ';\(name)=…'")
            }
            values.append(value)
        }
        guard !values.isEmpty else {
            throw DeserializationError(.missingPrefix, subject: subject, text: text, "a matrix value is ';\(name)=…'")
        }
        switch kind {
        case .primitive:
            guard values.count == 1 else { return try repeated(values, node: node) }
            return try coerced(try decoded(values[0]), node: node)
        case .array:
            return try array(explode ? values : values.flatMap { items(of: $0, separator: ",") }, node: node)
        case .object:
            let list = values.flatMap { items(of: $0, separator: ",") }
            return try object(alternatingPairs(list, text: text), node: node)
        }
    }

    /// A query parameter in `form`, `spaceDelimited`, `pipeDelimited` or `deepObject` style, or
    /// `nil` when the query does not carry it.
    func queryValue(_ pairs: [ParameterInput.Pair], kind: SchemaNode.Kind,
                    node: SchemaNode?) throws(DeserializationError) -> Value? {
        if style == .deepObject { return try deepObjectValue(pairs, node: node) }
        if kind == .object && explode {
            return try explodedObject(pairs.map { ($0.name, $0.rawValue ?? "") }, node: node)
        }
        guard let first = pairs.firstIndex(where: { $0.name == name }) else { return nil }
        let rest = pairs[(first + 1)...]
        let firstValue = pairs[first].rawValue ?? ""
        // A primitive given once, the common case, is read without a list of its values (kept,
        // see Benchmarks/Gate/kept-shortcuts.md).
        if kind == .primitive, !rest.contains(where: { $0.name == name }) {
            if !allowEmptyValue && firstValue.isEmpty { throw emptyValueError }
            return try coerced(try decoded(firstValue), node: node)
        }
        var values = [firstValue]
        for pair in rest where pair.name == name { values.append(pair.rawValue ?? "") }
        if !allowEmptyValue, values.contains(where: { $0.isEmpty }) { throw emptyValueError }
        return try formValue(values, kind: kind, node: node)
    }

    /// The error for an empty query value when `allowEmptyValue` is false.
    private var emptyValueError: DeserializationError {
        DeserializationError(.emptyValue, subject: subject, text: "",
                             "an empty value is not allowed (allowEmptyValue is false)")
    }

    /// The `form` reading of a parameter's values (each occurrence of its name), shared by query
    /// parameters, cookies and form bodies; `spaceDelimited` and `pipeDelimited` split at their
    /// own delimiter after decoding.
    func formValue(_ values: [Substring], kind: SchemaNode.Kind,
                   node: SchemaNode?) throws(DeserializationError) -> Value {
        switch kind {
        case .primitive:
            // A repeated primitive is kept as the list it is, so validation reports its type.
            guard values.count == 1 else { return try repeated(values, node: node) }
            return try coerced(try decoded(values[0]), node: node)
        case .array:
            if explode { return try array(values, node: node) }
            return try array(try values.flatMapThrowing { (value) throws(DeserializationError) in
                try delimitedItems(value)
            }, node: node)
        case .object:
            let list = try values.flatMapThrowing { (value) throws(DeserializationError) in try delimitedItems(value) }
            return try object(alternatingPairs(list, text: values.joined(separator: "&")), node: node)
        }
    }

    /// A non-exploded list value's raw items: split at `,` for `form`; decoded then split at
    /// spaces or pipes for `spaceDelimited` and `pipeDelimited` (their delimiters are escaped in
    /// a query, so each item comes back escaped for ``decoded(_:)``).
    private func delimitedItems(_ value: Substring) throws(DeserializationError) -> [Substring] {
        let separator: Character
        switch style {
        case .spaceDelimited: separator = " "
        case .pipeDelimited: separator = "|"
        default: return items(of: value, separator: ",")
        }
        let text = try decoded(value)
        return items(of: text[...], separator: separator).map { Substring(PercentEscaping.rfc3986.escape(String($0))) }
    }

    /// An exploded object (`R=100&G=200`): the members named by the schema's properties, or
    /// every member when it declares none; `nil` when none is present.
    func explodedObject(_ pairs: [(String, Substring)], node: SchemaNode?) throws(DeserializationError) -> Value? {
        let declared = try node?.propertyNames(subject: subject) ?? []
        var members: [Value.Object.Member] = []
        for (key, raw) in pairs where declared.isEmpty || declared.contains(key) {
            let value = try coerced(try decoded(raw), node: node?.property(key, subject: subject))
            members.append(.init(key: key, value: value))
        }
        return members.isEmpty ? nil : .object(Value.Object(members))
    }

    /// `deepObject` style: `color[R]=100&color[G]=200`; `nil` when no member is present.
    func deepObjectValue(_ pairs: [ParameterInput.Pair], node: SchemaNode?) throws(DeserializationError) -> Value? {
        var members: [Value.Object.Member] = []
        let opening = name + "["
        for pair in pairs where pair.name.hasPrefix(opening) {
            let key = pair.name.dropFirst(opening.count)
            guard key.last == "]", key.count > 1, !key.dropLast().contains("["), !key.dropLast().contains("]") else {
                throw DeserializationError(.malformedDeepObject, subject: subject, text: pair.name,
                                           "a deepObject member is \(name)[property], one level deep")
            }
            let property = String(key.dropLast())
            let value = try coerced(try decoded(pair.rawValue ?? ""), node: node?.property(property, subject: subject))
            members.append(.init(key: property, value: value))
        }
        return members.isEmpty ? nil : .object(Value.Object(members))
    }

    /// A cookie parameter (`form` style): `color=blue`, `color=blue,black`, or exploded as one
    /// cookie per item (`color=blue; color=black`) or per property (`R=100; G=200`).
    func cookieValue(_ values: [Substring], cookies: [(name: String, value: String)], kind: SchemaNode.Kind,
                     node: SchemaNode?) throws(DeserializationError) -> Value? {
        if kind == .object && explode {
            return try explodedObject(cookies.map { ($0.name, Substring($0.value)) }, node: node)
        }
        guard !values.isEmpty else { return nil }
        return try formValue(values, kind: kind, node: node)
    }

    /// A primitive sent more than once: the list of its values, each coerced as the primitive,
    /// so validation reports the list where one value belongs.
    func repeated(_ values: [Substring], node: SchemaNode?) throws(DeserializationError) -> Value {
        var list: [Value] = []
        for value in values { list.append(try coerced(try decoded(value), node: node)) }
        return .array(list)
    }

    /// `text` split at `separator`; empty text is no items.
    func items(of text: Substring, separator: Character) -> [Substring] {
        guard !text.isEmpty else { return [] }
        let items = text.split(separator: separator, omittingEmptySubsequences: false)
        return location == .header ? items.map { $0.trimmingCharacters(in: " \t") } : items
    }
}

extension Sequence {
    /// The concatenated results of a throwing `transform`, with its error type kept.
    func flatMapThrowing<Element2, Failure: Error>(
        _ transform: (Element) throws(Failure) -> [Element2]
    ) throws(Failure) -> [Element2] {
        var result: [Element2] = []
        for element in self { result += try transform(element) }
        return result
    }
}
