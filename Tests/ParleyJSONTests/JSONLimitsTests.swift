import Parley
import ParleyJSON
import Testing

@Suite struct JSONLimitsTests {
    let json = JSONFormat()

    @Test func depthLimitStopsDeepNestingWithoutRecursion() throws {
        for opener in ["[", "{\"a\":"] {
            let input = Array(String(repeating: opener, count: 1_000_000).utf8)
            let error = try #require(throws: FormatError.self) { try json.decode(input) }
            #expect(error.code == .limitExceeded)
            #expect(error.limit == FormatError.Limit(name: "maxDepth", maximum: 512, actual: 513))
        }
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let input = Array((String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).utf8)
        #expect(try json.decode(input).arrayValue != nil)
        let deeper = Array((String(repeating: "[", count: 513) + String(repeating: "]", count: 513)).utf8)
        #expect((try? json.decode(deeper)) == nil)
        #expect(try json.decode(deeper, limits: DecodingLimits(maxDepth: 600)).arrayValue != nil)
    }

    @Test func nodeLimitCountsEveryValue() throws {
        let input = Array("[1,2,3,[4]]".utf8)
        #expect(try json.decode(input, limits: DecodingLimits(maxNodes: 6)) == [1, 2, 3, [4]])
        let error = try #require(throws: FormatError.self) {
            try json.decode(input, limits: DecodingLimits(maxNodes: 5))
        }
        #expect(error.limit?.name == "maxNodes")
    }

    @Test func bodySizeLimitIsCheckedFirst() throws {
        let error = try #require(throws: FormatError.self) {
            try json.decode(Array("[1, 2]".utf8), limits: DecodingLimits(maxBodyBytes: 5))
        }
        #expect(error.limit?.name == "maxBodyBytes")
    }

    @Test func writesValuesDeeperThanTheParserAccepts() throws {
        // Deeper than the parser's default limit; the writer uses no machine-stack recursion.
        // (Much deeper trees are not built here: releasing a value tree recurses.)
        var value: Value = 1
        for _ in 0..<2_000 { value = [value] }
        let bytes = try json.encode(value)
        #expect(bytes.count == 4_001)
    }
}
