extension MediaType {
    /// Parameters stored without a heap allocation for the common cases of none and one
    /// (`charset`), so parsing a `Content-Type` allocates nothing for them.
    package struct ParameterList: Sendable, Sequence {
        private(set) var first: Parameter?
        private(set) var rest: [Parameter] = []

        init() {}

        init(_ parameters: [Parameter]) {
            first = parameters.first
            rest = Array(parameters.dropFirst())
        }

        var count: Int { first == nil ? 0 : 1 + rest.count }
        var isEmpty: Bool { first == nil }

        /// The parameters as an array (allocates when there are any).
        var array: [Parameter] {
            guard let first else { return [] }
            return [first] + rest
        }

        mutating func append(_ parameter: Parameter) {
            if first == nil { first = parameter } else { rest.append(parameter) }
        }

        /// Replaces the value of the parameter named `name`; `false` when there is none.
        mutating func setValue(_ value: String, forName name: String) -> Bool {
            if first?.name == name { first?.value = value; return true }
            guard let index = rest.firstIndex(where: { $0.name == name }) else { return false }
            rest[index].value = value
            return true
        }

        /// Calls `body` with each parameter in order: without the copy of the list an iterator
        /// holds (the command-line tool's answers write every parameter of every line).
        package func forEach(_ body: (Parameter) throws -> Void) rethrows {
            guard let first else { return }
            try body(first)
            for parameter in rest { try body(parameter) }
        }

        package func makeIterator() -> Iterator { Iterator(list: self) }

        package struct Iterator: IteratorProtocol {
            let list: ParameterList
            var position = -1

            package mutating func next() -> Parameter? {
                defer { position += 1 }
                if position == -1 { return list.first }
                return position < list.rest.count ? list.rest[position] : nil
            }
        }
    }
}
