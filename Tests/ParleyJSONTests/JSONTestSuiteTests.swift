import Foundation
import Parley
import ParleyJSON
import ParleyTestKit
import Testing

/// JSONTestSuite (`../shared/corpora/json`): `y_` accepted, `n_` rejected with a located
/// error, `i_` either way without a crash or hang.
@Suite struct JSONTestSuiteTests {
    static let directory = Corpora.directory("json")

    static func files(_ prefix: String) -> [String] {
        guard let directory else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory!.appendingPathComponent(name)))
    }

    let json = JSONFormat()

    @Test func corpusIsPresentOrSkippedVisibly() {
        if Self.directory == nil {
            print(Corpora.missingMessage("json"))
            return
        }
        #expect(Self.files("y_").count == 95)
        #expect(Self.files("n_").count == 188)
        #expect(Self.files("i_").count == 35)
    }

    @Test(arguments: files("y_"))
    func acceptsEveryValidDocument(_ name: String) throws {
        let value = try json.decode(Self.bytes(name))
        // Re-encoding and decoding again yields the same structure.
        let again = try json.decode(json.encode(value))
        #expect(again == value)
    }

    @Test(arguments: files("n_"))
    func rejectsEveryInvalidDocumentWithAnOffset(_ name: String) throws {
        let input = try Self.bytes(name)
        let error = #expect(throws: FormatError.self) { try json.decode(input) }
        guard let error else { return }
        #expect([.malformed, .truncated, .invalidText, .limitExceeded].contains(error.code))
        let offset = try #require(error.location?.byteOffset)
        #expect(offset >= 0 && offset <= input.count)
    }

    @Test(arguments: files("i_"))
    func implementationDefinedDocumentsDecideCleanly(_ name: String) throws {
        let input = try Self.bytes(name)
        do {
            let value = try json.decode(input)
            print("\(name): accepted as \(value.kindName)")
            #expect(try json.decode(json.encode(value)) == value)
        } catch let error as FormatError {
            print("\(name): rejected, \(error.code)")
            #expect(error.location != nil || error.code == .limitExceeded || error.code == .unsupportedMediaType)
        }
    }

    static let samples: [(String, Value)] = [
        ("y_array_heterogeneous.json", .array([.null, .integer(1), .string("1"), .object([:])])),
        ("y_number_negative_zero.json", .array([.number("-0")])),
        (
            "y_object_duplicated_key.json",
            .object(Value.Object([.init(key: "a", value: .string("b")), .init(key: "a", value: .string("c"))]))
        ),
        ("y_string_accepted_surrogate_pair.json", .array([.string("\u{10437}")])),
        ("y_string_escaped_control_character.json", .array([.string("\u{12}")])),
        ("y_number_real_capital_e.json", .array([.float(1e22)])),
        ("y_structure_lonely_int.json", .integer(42)),
        ("y_object_basic.json", .object(["asd": .string("sdf")])),
        ("y_string_unicode_2.json", .array([.string("⍂㈴⍂")])),
        ("y_number_simple_real.json", .array([.float(123.456789)])),
        ("y_structure_whitespace_array.json", .array([]))
    ]

    @Test(arguments: samples)
    func decodesSampleDocumentsToTheirValues(_ name: String, expected: Value) throws {
        guard Self.directory != nil else {
            print(Corpora.missingMessage("json"))
            return
        }
        #expect(try json.decode(Self.bytes(name)) == expected)
    }

    @Test func deepOpeningArraysStopAtTheDepthLimit() throws {
        guard Self.directory != nil else {
            print(Corpora.missingMessage("json"))
            return
        }
        let error = #expect(throws: FormatError.self) {
            try json.decode(Self.bytes("n_structure_100000_opening_arrays.json"))
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit?.name == "maxDepth")
    }
}
