import Parley
import Testing

/// The repeated-parameter check stays cheap: a media type has at most `maxParameterCount`
/// parameters, and more is a typed error, not thousands of pairwise comparisons.
@Suite struct MediaTypeParameterCountTests {
    static func parameters(_ count: Int) -> String {
        "text/plain" + (0..<count).map { ";p\($0)=v" }.joined()
    }

    @Test func upToTheLimitParses() throws {
        let type = try MediaType(parsing: Self.parameters(MediaType.maxParameterCount))
        #expect(type.parameters.count == MediaType.maxParameterCount)
    }

    @Test func moreIsATypedError() throws {
        let error = try #require(throws: MediaTypeParseError.self) {
            try MediaType(parsing: Self.parameters(MediaType.maxParameterCount + 1))
        }
        #expect(error.code == .tooManyParameters)
        #expect(try #require(throws: MediaTypeParseError.self) { try MediaType(parsing: Self.parameters(8_000)) }.code
                == .tooManyParameters)
    }

    @Test func aRepeatedNameIsStillFoundWithinTheLimit() throws {
        let text = Self.parameters(MediaType.maxParameterCount - 1) + ";P0=w"
        #expect(
            try #require(throws: MediaTypeParseError.self) { try MediaType(parsing: text) }.code == .duplicateParameter)
    }
}
