import Parley
import ParleySchema
import Testing

/// `enum` and `const` compare strings code point by code point: canonically equivalent strings
/// with other bytes (which Swift's `==` equates) are different values.
@Suite struct StringEqualityTests {
    @Test func equivalentStringsWithOtherBytesDiffer() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)
        let enumeration = try JSONSchema(["enum": ["open", .string(composed), "shipped"]])
        #expect(try enumeration.isValid(.string(composed)))
        #expect(try !enumeration.isValid(.string(decomposed)))
        #expect(try enumeration.isValid("shipped"))
        #expect(try !enumeration.isValid("shippe"))
        let constant = try JSONSchema(["const": .string(decomposed)])
        #expect(try constant.isValid(.string(decomposed)))
        #expect(try !constant.isValid(.string(composed)))
        // Long enough to be stored out of line.
        let prefix = String(repeating: "x", count: 40)
        let long = try JSONSchema(["const": .string(prefix + composed)])
        #expect(try long.isValid(.string(prefix + composed)))
        #expect(try !long.isValid(.string(prefix + decomposed)))
    }
}
