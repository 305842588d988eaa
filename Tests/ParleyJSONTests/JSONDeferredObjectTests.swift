import Foundation
import Parley
import ParleyJSON
import ParleyTestKit
import Testing

/// `JSONFormat.decode(_:)` validates the whole text into a tape and returns objects that build
/// their members on demand. These tests hold such objects to the promise of `Value.Object`:
/// the same members, equality, hashing, lookups and value semantics as an object that holds
/// its members.
@Suite struct JSONDeferredObjectTests {
    let json = JSONFormat()

    func decode(_ text: String) throws -> Value {
        try json.decode(Array(text.utf8))
    }

    /// Whether any object in `value` builds its members on demand.
    func containsDeferred(_ value: Value) -> Bool {
        switch value {
        case .array(let elements): elements.contains(where: containsDeferred)
        case .object(let object): object.isDeferred || object.contains { containsDeferred($0.value) }
        case .tagged(_, let inner): containsDeferred(inner)
        default: false
        }
    }

    /// `value` without `null` object members at any depth (what `removesNullValues` decodes).
    func removingNullMembers(_ value: Value) -> Value {
        switch value {
        case .array(let elements): .array(elements.map(removingNullMembers))
        case .object(let object):
            .object(
                Value.Object(
                    object.filter { !$0.value.isNull }.map { .init(key: $0.key, value: removingNullMembers($0.value)) })
            )
        default: value
        }
    }

    /// `removesNullValues` builds every member from the tape at once; the deferred tree must
    /// hold the same values.
    func expectSameAsTheTreeParser(_ bytes: [UInt8], _ comment: Comment? = nil) throws {
        let deferred = try json.decode(bytes)
        let built = try JSONFormat(options: .init(removesNullValues: true)).decode(bytes)
        #expect(!containsDeferred(built))
        #expect(removingNullMembers(deferred) == built, comment)
        #expect(removingNullMembers(deferred.resolved()) == built, comment)
    }

    @Test func everySuiteDocumentMatchesTheTreeParser() throws {
        guard JSONTestSuiteTests.directory != nil else {
            print(Corpora.missingMessage("json"))
            return
        }
        for name in JSONTestSuiteTests.files("y_") + JSONTestSuiteTests.files("i_") {
            let bytes = try JSONTestSuiteTests.bytes(name)
            guard (try? json.decode(bytes)) != nil else { continue } // an i_ file Parley rejects
            try expectSameAsTheTreeParser(bytes, "\(name)")
        }
    }

    @Test func nestedAndWideDocumentsMatchTheTreeParser() throws {
        let wide =
            "{"
            + (0..<40).map { #""k\#($0)": [\#($0), {"n": "v\#($0)", "deep": [[{"x": [\#($0)]}]]}]"# }.joined(
                separator: ",") + "}"
        for text in [
            wide, "[\(wide), \(wide)]",
            #"{"a": {"b": {"c": {"d": [1, 2, {"e": "\u00e9\"\ud83d\ude00"}]}}}, "a": 2}"#,
            #"[[[], [[{}]], {"": {"": ""}}], 12345678901234567890, 1e400, -0, 0.1]"#,
            #"{"this key is longer than fifteen bytes": "and so is this string value, by a lot"}"#,
        ] {
            try expectSameAsTheTreeParser(Array(text.utf8), "\(text)")
        }
    }

    @Test func objectsAreDeferredUntilResolved() throws {
        let value = try decode(#"[{"a": 1}, [{"b": {"c": 2}}]]"#)
        #expect(value[0]?.objectValue?.isDeferred == true)
        #expect(value[1]?[0]?.objectValue?.isDeferred == true)
        #expect(value[1]?[0]?["b"]?.objectValue?.isDeferred == true)
        let resolved = value.resolved()
        #expect(!containsDeferred(resolved))
        #expect(resolved == value)
        #expect(resolved.hashValue == value.hashValue)
        #expect(Set([value, resolved]).count == 1)
    }

    /// Deferred objects inside held arrays, objects and tags are resolved too; a tree with none
    /// comes back equal.
    @Test func resolvingReachesDeferredObjectsAtAnyDepth() throws {
        let decoded = try decode(#"{"a": [{"b": 1}], "c": "long enough to need its own storage"}"#)
        let mixed: Value = [1, ["held": decoded, "list": [decoded, .tagged("uid", decoded)]], "x"]
        #expect(containsDeferred(mixed))
        let resolved = mixed.resolved()
        #expect(!containsDeferred(resolved))
        #expect(resolved == mixed)
        let plain: Value = [1, ["held": ["b": 1], "list": [.tagged("uid", "y")]]]
        #expect(plain.resolved() == plain)
    }

    /// Position, iteration, `members`, `keys`, `count`, lookups and `contains(key:)` agree with a built object,
    /// below and above the size at which the object indexes its members.
    @Test(arguments: [0, 1, 3, 16, 17, 40])
    func everyWayOfReadingAgrees(memberCount: Int) throws {
        // Every third key repeats an earlier one, so lookups must find the last.
        let keys = (0..<memberCount).map { $0 % 3 == 2 ? "key\($0 - 2)" : "key\($0)" }
        let text = "{" + keys.enumerated().map { #""\#($1)": {"at": \#($0)}"# }.joined(separator: ", ") + "}"
        let object = try #require(try decode(text).objectValue)
        let built = object.resolved()
        #expect(object.isDeferred && !built.isDeferred)
        #expect(object.count == memberCount)
        #expect(object.keys == keys)
        #expect(object.members == built.members)
        #expect(Array(object) == built.members)
        for position in object.indices.reversed() {
            #expect(object[position] == built[position])
            #expect(object[position].value["at"] == .integer(Int64(position)))
        }
        for key in Set(keys) {
            let last = keys.lastIndex(of: key)!
            #expect(object[key] == .object(["at": .integer(Int64(last))]))
            #expect(object.contains(key: key) && built.contains(key: key))
        }
        #expect(object["absent"] == nil)
        #expect(!object.contains(key: "absent") && !built.contains(key: "absent"))
        #expect(object == built && built == object)
    }

    @Test func lookupsCompareTheKeysText() throws {
        // Same length, first, middle and last bytes: these keys share the tape's key hash.
        let object = try #require(try decode(#"{"abxa": 1, "acxa": 2, "a\u0062xa": 3, "é": 4, "": 5}"#).objectValue)
        #expect(object["abxa"] == 3)
        #expect(object["acxa"] == 2)
        #expect(object["adxa"] == nil)
        #expect(object["é"] == 4)
        #expect(object[""] == 5)
        #expect(object.contains(key: "acxa") && object.contains(key: "é") && object.contains(key: ""))
        #expect(!object.contains(key: "adxa") && !object.contains(key: "abx"))
        #expect(object.keys == ["abxa", "acxa", "abxa", "é", ""])
    }

    @Test func objectsWithDifferentMembersAreUnequal() throws {
        let value = try decode(#"{"a": 1, "b": 2}"#)
        #expect(value != (try decode(#"{"b": 2, "a": 1}"#)))
        #expect(value != (try decode(#"{"a": 1, "b": 3}"#)))
        #expect(value != (try decode(#"{"a": 1}"#)))
        #expect(value == ["a": 1, "b": 2])
        #expect(value == (try decode(#"{ "a" : 1 , "b" : 2 }"#)))
    }

    /// Mutating a copy builds its members first and leaves every other copy as it was.
    @Test func mutationKeepsValueSemantics() throws {
        let original = try #require(try decode(#"{"a": 1, "b": {"c": [1, 2]}, "a": 3}"#).objectValue)
        var changed = original
        changed["a"] = "x"
        #expect(!changed.isDeferred)
        #expect(changed.members.map(\.key) == ["a", "b", "a"])
        #expect(changed.members.map(\.value) == [1, ["c": [1, 2]], "x"])
        var appended = original
        appended.append(key: "d", value: true)
        var removed = original
        removed["a"] = nil
        var edited = original
        edited.members[1].value = .null
        #expect(appended.keys == ["a", "b", "a", "d"])
        #expect(removed.keys == ["b"])
        #expect(edited["b"] == .null)
        #expect(original.isDeferred)
        #expect(original["a"] == 3)
        #expect(original["b"] == ["c": [1, 2]])
    }

    /// The tape owns a copy of the body: values read after the caller's buffer is gone or
    /// reused are still right.
    @Test func valuesOutliveTheCallersBuffer() throws {
        var bytes = Array(#"{"name": "a string that is longer than fifteen bytes", "list": [{"k": "v"}]}"#.utf8)
        let value = try json.decode(bytes)
        for i in bytes.indices { bytes[i] = 0x20 }
        bytes = []
        #expect(value["name"] == "a string that is longer than fifteen bytes")
        #expect(value["list"]?[0]?["k"] == "v")
    }

    @Test func oneTreeCanBeReadFromManyTasksAtOnce() async throws {
        let text =
            "["
            + (0..<200).map { #"{"id": \#($0), "name": "user number \#($0) with a long name", "tags": ["a", "b"]}"# }
            .joined(separator: ",") + "]"
        let value = try decode(text)
        let expected = value.resolved()
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    value.resolved() == expected && value[199]?["name"] == "user number 199 with a long name"
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    /// Arrays nested in arrays are built without recursion, to any depth the limits allow.
    @Test func deeplyNestedArraysBuildWithoutRecursion() throws {
        let depth = 100_000
        let text = String(repeating: "[", count: depth) + #"{"a": 1}"# + String(repeating: "]", count: depth)
        var value = try json.decode(Array(text.utf8), limits: DecodingLimits(maxDepth: depth + 1))
        var levels = 0
        while case .array(let elements) = value {
            levels += 1
            value = elements[0]
        }
        #expect(levels == depth)
        #expect(value["a"] == 1)
    }

    /// Tapes of 16 MiB and more take their memory another way (huge pages); values and Codable
    /// read from them must not change.
    @Test func largeTapesReadTheSame() throws {
        // A 17 MB string: the tape's copy of the body is large.
        let long = String(repeating: "abcdefghijklmnopq", count: 1_000_000)
        let big = try json.decode(Array(#"{"text": "\#(long)", "n": 1}"#.utf8))
        #expect(big["text"] == .string(long))
        #expect(big["n"] == 1)
        // 1.2 million numbers: the entries (16 bytes each) are large.
        let count = 1_200_000
        let numbers = Array(("[" + Array(repeating: "7", count: count).joined(separator: ",") + "]").utf8)
        #expect(try json.decode(numbers).arrayValue?.count == count)
        let decoded = try json.decode([Int].self, from: numbers)
        #expect(decoded.count == count && decoded.allSatisfy { $0 == 7 })
    }

    @Test func dumpsShowTheMembers() throws {
        let value = try decode(#"{"a": 1}"#)
        #expect("\(value)".contains("members"))
        #expect(String(reflecting: value) == String(reflecting: value.resolved()))
    }
}
