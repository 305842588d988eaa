import Parley
import ParleyProtobuf
import Testing

/// Malformed and hostile wire input: each is a typed `FormatError`, in constant memory, never a crash.
@Suite struct ProtobufHostileInputTests {
    static func code(_ bytes: [UInt8], _ type: String = "parley.test.Scalars",
                     limits: DecodingLimits = .standard, keepsUnknown: Bool = false) -> FormatError.Code? {
        do {
            let format = try TestSchema.format(messageType: type, keepsUnknownFields: keepsUnknown)
            _ = try format.decode(bytes, limits: limits)
            return nil
        } catch let error as FormatError {
            return error.code
        } catch {
            return FormatError.Code("not a FormatError: \(error)")
        }
    }

    @Test func truncatedVarintsAndFixedValues() {
        #expect(Self.code([0x18]) == .truncated)
        #expect(Self.code([0x18, 0x80]) == .truncated)
        #expect(Self.code([0x98]) == .truncated)
        #expect(Self.code([0x09, 0x01, 0x02]) == .truncated)        // f_double: 2 of 8 bytes
        #expect(Self.code([0x15, 0x01]) == .truncated)              // f_float: 1 of 4 bytes
    }

    @Test func overlongVarintsAreMalformed() {
        #expect(Self.code([0x18] + Array(repeating: 0xFF, count: 10) + [0x01]) == .malformed)
        #expect(Self.code([0x18] + Array(repeating: 0x80, count: 9) + [0x02]) == .malformed)
    }

    @Test func wrongWireTypesAreMalformed() {
        #expect(Self.code([0x1D, 0, 0, 0, 0]) == .malformed)        // f_int32 as fixed32
        #expect(Self.code([0x72 - 2, 0x01]) == .malformed)          // f_string as a varint
        #expect(Self.code([0x1E]) == .malformed)                    // wire type 6
        #expect(Self.code([0x1F]) == .malformed)                    // wire type 7
        #expect(Self.code([0x00]) == .malformed)                    // field number 0
        #expect(Self.code([0x0C]) == .malformed)                    // an end-group tag without its start
        #expect(Self.code([0x9B, 0x06, 0xA4, 0x06]) == .malformed)  // group 99 ended by group 100's end tag
        #expect(Self.code([0x9B, 0x06]) == .truncated)              // group 99 never ends
    }

    @Test func lengthsPastTheEndFailBeforeAllocating() {
        #expect(Self.code([0x72, 0x05, 0x61]) == .truncated)
        #expect(Self.code([0x72, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]) == .truncated)
        #expect(Self.code([0x72] + Array(repeating: 0xFF, count: 9) + [0x01]) == .truncated)
        #expect(Self.code([0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x07], "parley.test.Everything") == .truncated)
        #expect(Self.code([0x1A, 0x04, 0x01], "parley.test.Repeated") == .truncated)     // packed
    }

    @Test func invalidUTF8IsInvalidText() {
        #expect(Self.code([0x72, 0x02, 0xC3, 0x28]) == .invalidText)
    }

    @Test func recursionIsBounded() {
        var message: [UInt8] = []
        for _ in 0..<200 { message = [0x62] + varint(message.count) + message }   // child = 12
        #expect(Self.code(message, "parley.test.Everything") == .limitExceeded)
        var shallow: [UInt8] = []
        for _ in 0..<6 { shallow = [0x62] + varint(shallow.count) + shallow }
        #expect(Self.code(shallow, "parley.test.Everything") == nil)
        #expect(Self.code(shallow, "parley.test.Everything", limits: DecodingLimits(maxDepth: 5)) == .limitExceeded)
        let groups: [UInt8] = Array(repeating: [0x9B, 0x06], count: 50_000).flatMap { $0 }   // unknown group 99, nested
        #expect(Self.code(groups) == .limitExceeded)
    }

    /// parley.test2.WithGroups (proto2): group header = 2 (tags 0x13 … 0x14), repeated group item = 7
    /// (0x3B … 0x3C) holding a WithGroups message in field 10 (0x52).
    @Test func knownGroupsEndWithTheirOwnEndTag() {
        #expect(Self.code([0x13], "parley.test2.WithGroups") == .truncated)
        #expect(Self.code([0x13, 0x1A, 0x01], "parley.test2.WithGroups") == .truncated)
        #expect(Self.code([0x13, 0x3C], "parley.test2.WithGroups") == .malformed)       // ended by item's end tag
        #expect(Self.code([0x12, 0x00], "parley.test2.WithGroups") == .malformed)       // header length-delimited
        #expect(Self.code([0x14], "parley.test2.WithGroups") == .malformed)             // an end tag alone
        #expect(Self.code([0x13, 0x14], "parley.test2.WithGroups") == nil)
    }

    @Test func nestedGroupsAreBoundedByTheDepthLimit() {
        func nested(_ levels: Int) -> [UInt8] {
            var message: [UInt8] = []
            for _ in 0..<levels { message = [0x3B, 0x52] + varint(message.count) + message + [0x3C] }
            return message
        }
        #expect(Self.code(nested(200), "parley.test2.WithGroups") == .limitExceeded)
        #expect(Self.code(nested(10), "parley.test2.WithGroups") == nil)
        #expect(Self.code(nested(10), "parley.test2.WithGroups", limits: DecodingLimits(maxDepth: 10))
                == .limitExceeded)
    }

    @Test func nodesBodyAndUnknownBytesAreBounded() {
        let repeated: [UInt8] = Array(repeating: [0x18, 0x01], count: 1000).flatMap { $0 }
        #expect(Self.code(repeated, "parley.test.Repeated", limits: DecodingLimits(maxNodes: 100)) == .limitExceeded)
        #expect(Self.code(repeated, "parley.test.Repeated", limits: DecodingLimits(maxBodyBytes: 100))
                == .limitExceeded)
        let unknown: [UInt8] = [0xA2, 0x06] + varint(2 << 20) + Array(repeating: 0, count: 2 << 20)
        #expect(Self.code(unknown) == nil)
        #expect(Self.code(unknown, keepsUnknown: true) == .limitExceeded)
    }

    @Test func everyTruncationOfAMessageIsAnErrorOrAShorterMessage() throws {
        let format = try TestSchema.format()
        let full = try format.encode([
            "scalars": ["fInt64": "-1", "fString": "héllo", "fDouble": 2.5],
            "repeated": ["rSint32": [1, -2, 3], "rString": ["a", "b"]],
            "maps": ["stringToString": ["k": "v"]], "wellKnown": ["timestamp": "2001-02-03T04:05:06Z"],
        ])
        var errors = 0
        for cut in 0..<full.count {
            do { _ = try format.decode(Array(full.prefix(cut))) } catch is FormatError { errors += 1 }
        }
        #expect(errors > full.count / 2)
    }

    func varint(_ value: Int) -> [UInt8] {
        var rest = UInt64(value)
        var out: [UInt8] = []
        while rest >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        return out + [UInt8(rest)]
    }
}
