import FoundationEssentials
import Parley

/// The `Decoder` that reads Codable types straight from a ``JSONTape``, with no value tree.
///
/// It follows `ValueDecoder`'s rules exactly (numbers, dates, data, URLs and error paths go
/// through the same `ValueDecoder` conversions), so a type decodes the same from JSON whichever
/// path runs. Like `ValueDecoder`'s decoder, one instance decodes the whole document: decoding a
/// nested value moves `index` and pushes its key on `codingPath` for the duration.
final class JSONTapeDecoder: Decoder, SingleValueDecodingContainer {
    let tape: JSONTape
    /// The entry of the value being decoded.
    var index: Int
    private(set) var codingPath: [any CodingKey]
    /// `codingPath.count`, kept beside it: reading this plain integer needs no run-time
    /// exclusivity check, where reading the array does.
    private(set) var depth: Int
    let options: ValueDecoder
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    init(tape: JSONTape, index: Int, codingPath: [any CodingKey], options: ValueDecoder) {
        self.tape = tape
        self.index = index
        self.codingPath = codingPath
        self.depth = codingPath.count
        self.options = options
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try expect(.object, at: index, path: codingPath)
        return KeyedDecodingContainer(JSONTapeKeyedContainer<Key>(
            decoder: self, object: index, pathCount: depth, nestedKeys: []))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try expect(.array, at: index, path: codingPath)
        return JSONTapeUnkeyedContainer(decoder: self, array: index, pathCount: depth, nestedKeys: [])
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Throws a type mismatch unless the entry at `index` is an array or object, as `kind` says.
    @inline(__always)
    func expect(_ kind: JSONTape.Kind, at index: Int, path: @autoclosure () -> [any CodingKey]) throws {
        guard tape.entries[index].kind == kind else {
            throw options.mismatch(
                kind == .object ? [String: Any].self : [Any].self, tape.scalar(at: index), path: path())
        }
    }

    // MARK: Nested values

    /// Decodes the value at `index` as `T` at `codingPath[..<pathCount] + nestedKeys + [key]`.
    @inline(__always)
    func unwrap<T: Decodable>(_ index: Int, as type: T.Type, pathCount: Int, nestedKeys: [any CodingKey],
                              key: any CodingKey) throws -> T {
        if ValueDecoder.mayDecodePrimitive(T.self) {
            return try unwrapPrimitiveOrNested(
                index, as: T.self, pathCount: pathCount, nestedKeys: nestedKeys, key: key)
        }
        return try unwrapNested(index, as: T.self, pathCount: pathCount, nestedKeys: nestedKeys, key: key)
    }

    /// ``unwrap(_:as:pathCount:nestedKeys:key:)`` for a type that may be primitive. Kept out
    /// of line: the `Optional<T>` it handles costs a metadata lookup wherever it appears.
    @inline(never)
    func unwrapPrimitiveOrNested<T: Decodable>(
        _ index: Int, as type: T.Type, pathCount: Int, nestedKeys: [any CodingKey],
        key: any CodingKey
    ) throws -> T {
        if let primitive = try decodePrimitive(index, as: T.self, path: { self.path(pathCount, nestedKeys, key) }) {
            return primitive
        }
        if let array = T.self as? any JSONTapeDecodableArray.Type, depth == pathCount {
            codingPath.append(contentsOf: nestedKeys)
            codingPath.append(key)
            depth += nestedKeys.count + 1
            defer {
                codingPath.removeLast(nestedKeys.count + 1)
                depth = pathCount
            }
            return try array.decodeElements(from: self, array: index) as! T
        }
        return try unwrapNested(index, as: T.self, pathCount: pathCount, nestedKeys: nestedKeys, key: key)
    }

    /// Runs `T.init(from:)` on the value at `index`.
    @inline(__always)
    func unwrapNested<T: Decodable>(_ index: Int, as type: T.Type, pathCount: Int, nestedKeys: [any CodingKey],
                                    key: any CodingKey) throws -> T {
        guard depth == pathCount else {
            // A container used outside its parent's scope: decode with a decoder of its own.
            let child = JSONTapeDecoder(
                tape: tape, index: index, codingPath: path(pathCount, nestedKeys, key), options: options)
            return try T(from: child)
        }
        let savedIndex = self.index
        self.index = index
        if !nestedKeys.isEmpty { codingPath.append(contentsOf: nestedKeys) }
        codingPath.append(key)
        depth += nestedKeys.count + 1
        defer {
            self.index = savedIndex
            if nestedKeys.isEmpty { codingPath.removeLast() } else { codingPath.removeLast(nestedKeys.count + 1) }
            depth = pathCount
        }
        return try T(from: self)
    }

    /// Decodes the top-level value.
    func decodeDocument<T: Decodable>(as type: T.Type) throws -> T {
        if let primitive = try decodePrimitive(index, as: T.self, path: { [] }) { return primitive }
        if let array = T.self as? any JSONTapeDecodableArray.Type {
            return try array.decodeElements(from: self, array: index) as! T
        }
        return try T(from: self)
    }

    func path(_ count: Int, _ nestedKeys: [any CodingKey], _ key: (any CodingKey)?) -> [any CodingKey] {
        codingPath.codingPath(prefix: count, nestedKeys, key)
    }

    @inline(__always)
    func decodePrimitive<T: Decodable>(_ index: Int, as type: T.Type, path: () -> [any CodingKey]) throws -> T? {
        try options.decodePrimitive(Node(decoder: self, index: index), as: T.self, path: path)
    }

    /// An entry of the tape as the shared primitive decoding sees it.
    struct Node: CodableNode {
        let decoder: JSONTapeDecoder
        let index: Int

        var scalar: Value { decoder.tape.scalar(at: index) }

        func mapElements<Element>(path: () -> [any CodingKey],
                                  _ convert: (Value, () -> [any CodingKey]) throws -> Element) throws -> [Element] {
            let tape = decoder.tape
            try decoder.expect(.array, at: index, path: path())
            return try withoutActuallyEscaping(path) { path in
                var result: [Element] = []
                result.reserveCapacity(Int(tape.entries[index].length))
                try tape.forEachElement(of: index) { position, element in
                    result.append(
                        try convert(tape.scalar(at: element), { path() + [CodingIndexKey(intValue: position)] }))
                }
                return result
            }
        }

        func decodeDeferredDate() throws -> Date {
            let saved = decoder.index
            decoder.index = index
            defer { decoder.index = saved }
            return try Date(from: decoder)
        }
    }

    // MARK: SingleValueDecodingContainer

    var value: Value { tape.scalar(at: index) }

    func decodeNil() -> Bool { tape.entries[index].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try options.bool(value, path: codingPath) }
    func decode(_ type: String.Type) throws -> String { try options.string(value, path: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try options.double(value, path: { self.codingPath }) }
    func decode(_ type: Float.Type) throws -> Float { try options.float(value, path: { self.codingPath }) }
    func decode(_ type: Int.Type) throws -> Int { try integer() }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    @inline(__always)
    private func integer<T: FixedWidthInteger>() throws -> T {
        try options.integer(value, as: T.self, path: { self.codingPath })
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let primitive = try decodePrimitive(index, as: T.self, path: { self.codingPath }) { return primitive }
        return try T(from: self)
    }
}

/// An array of `Decodable` elements, which ``JSONTapeDecoder`` reads element by element from
/// the tape instead of through `Array.init(from:)` and an unkeyed container (same values, same
/// errors, one allocation for the result).
protocol JSONTapeDecodableArray {
    /// Reads the array at entry `array`; `decoder.codingPath` is the array's path.
    static func decodeElements(from decoder: JSONTapeDecoder, array: Int) throws -> Self
}

extension Array: JSONTapeDecodableArray where Element: Decodable {
    static func decodeElements(from decoder: JSONTapeDecoder, array: Int) throws -> [Element] {
        try decoder.expect(.array, at: array, path: decoder.codingPath)
        let pathCount = decoder.depth
        let count = Int(decoder.tape.entries[array].length)
        var result: [Element] = []
        result.reserveCapacity(count)
        // A loop rather than `JSONTape/forEachElement(of:_:)`: a closure capturing `result`
        // looks up `[Element]`'s metadata on every element.
        var element = array &+ 1
        for position in 0..<count {
            result.append(try decoder.unwrap(element, as: Element.self, pathCount: pathCount, nestedKeys: [],
                                             key: CodingIndexKey(intValue: position)))
            element = decoder.tape.next(after: element)
        }
        return result
    }
}
