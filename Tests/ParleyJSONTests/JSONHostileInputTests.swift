import Parley
import ParleyJSON
import Testing

/// Generated hostile bodies: every value counts against `maxNodes` in the one validating pass,
/// on every way of decoding, and numbers of any length are read in one linear pass with no
/// arithmetic that can trap.
@Suite struct JSONHostileInputTests {
    let json = JSONFormat()
    let small = DecodingLimits(maxNodes: 1_000)

    struct Row: Decodable { var a: Int }

    /// The error each way of decoding gives for `text` under `limits`: the value tree, the tree
    /// that drops nulls, and Codable.
    func errors(_ text: String, limits: DecodingLimits) -> [FormatError?] {
        let bytes = Array(text.utf8)
        func error(_ body: () throws -> Void) -> FormatError? {
            do { try body(); return nil } catch { return error as? FormatError }
        }
        return [
            error { _ = try json.decode(bytes, limits: limits) },
            error { _ = try JSONFormat(options: .init(removesNullValues: true)).decode(bytes, limits: limits) },
            error { _ = try json.decode([[Int]].self, from: bytes, limits: limits) },
        ]
    }

    @Test(arguments: ["[]", "{}", "0", "[0]"])
    func smallValuesCountBeforeTheTreeIsBuilt(_ element: String) throws {
        // A million tiny values: 3 to 4 bytes each, one node (two for "[0]") each.
        let text = "[" + Array(repeating: element, count: 1_000_000).joined(separator: ",") + "]"
        for error in errors(text, limits: small) {
            #expect(error?.code == .limitExceeded)
            #expect(error?.limit?.name == "maxNodes")
            #expect((error?.location?.byteOffset ?? .max) < 5_000)
        }
    }

    @Test func repeatedKeysDecodeInLinearTimeAndTheLastWins() throws {
        // 200,000 members all named "a": the keyed container indexes the object once.
        let members = (0..<200_000).map { "\"a\":\($0)" }.joined(separator: ",")
        let rows = try json.decode([Row].self, from: Array("[{\(members)}]".utf8))
        #expect(rows.first?.a == 199_999)
        #expect(try json.decode(Array("{\(members)}".utf8)).objectValue?["a"] == 199_999)
    }

    @Test func numbersOfAnyLengthStayExactTextWithoutTrapping() throws {
        let digits = String(repeating: "9", count: 1_000_000)
        let zeros = String(repeating: "0", count: 1_000_000)
        for text in [
            digits, "-" + digits, "0." + zeros + "1", "1e" + digits, "1e-" + digits, "1." + digits + "e-" + digits,
            "1E+" + digits
        ] {
            let value = try json.decode(Array("[\(text)]".utf8)).arrayValue?.first
            #expect(value == .number(text), "\(text.prefix(12))…")
        }
        // Exponents past Int64 saturate instead of overflowing.
        #expect(
            try json.decode(Array("[1e99999999999999999999999999]".utf8)) == [.number("1e99999999999999999999999999")])
        #expect(try json.decode(Array("[9223372036854775808, -9223372036854775809]".utf8))
                == [.number("9223372036854775808"), .number("-9223372036854775809")])
    }

    @Test func longStringsOfEscapesCostOneCopy() throws {
        let text = "[\"" + String(repeating: "\\n\\u00e9", count: 200_000) + "\"]"
        let string = try json.decode(Array(text.utf8)).arrayValue?.first?.stringValue
        #expect(string?.utf8.count == 600_000)
    }
}
