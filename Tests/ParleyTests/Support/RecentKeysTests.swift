import Parley
import Testing

@Suite struct RecentKeysTests {
    /// Reads the key of `count` bytes at `offset` of `bytes` from `keys`, counting the keys `make` made.
    private func key(_ keys: inout RecentKeys, _ bytes: [UInt8], at offset: Int, count: Int,
                     made: inout Int) throws -> String? {
        try bytes.withUnsafeBufferPointer { buffer in
            try keys.key(in: buffer, at: offset, count: count) { slice throws(FormatError) in
                made += 1
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw FormatError(.invalidText, format: "test", "not UTF-8")
                }
                return text
            }
        }
    }

    @Test func aRepeatedKeyIsMadeOnceAndComesBackEqual() throws {
        var keys = RecentKeys()
        var made = 0
        // Far from the end (whole words) and at the very end (bytes copied), every length up to 15.
        for length in 0...15 {
            let text = String("abcdefghijklmnopqrstuvwxyz".prefix(length))
            let padded = Array(text.utf8) + [UInt8](repeating: 0x7A, count: 20)
            let before = made
            #expect(try key(&keys, padded, at: 0, count: length, made: &made) == text)
            #expect(try key(&keys, padded, at: 0, count: length, made: &made) == text)
            #expect(try key(&keys, Array(("xy" + text).utf8), at: 2, count: length, made: &made) == text)
            #expect(made - before <= 1, "\(length)")
        }
    }

    @Test func keysThatDifferOnlyInLengthOrTrailingZerosStayApart() throws {
        var keys = RecentKeys()
        var made = 0
        let bytes: [UInt8] = Array("a\0\0b".utf8) + [UInt8](repeating: 0, count: 20)
        #expect(try key(&keys, bytes, at: 0, count: 0, made: &made) == "")
        #expect(try key(&keys, bytes, at: 0, count: 1, made: &made) == "a")
        #expect(try key(&keys, bytes, at: 0, count: 2, made: &made) == "a\0")
        #expect(try key(&keys, bytes, at: 0, count: 3, made: &made) == "a\0\0")
        #expect(try key(&keys, bytes, at: 0, count: 1, made: &made) == "a")
        #expect(try key(&keys, bytes, at: 0, count: 0, made: &made) == "")
    }

    @Test func manyKeysSharingSlotsEachComeBackRight() throws {
        var keys = RecentKeys()
        var made = 0
        // More keys than slots: some replace others, none is ever returned for another's bytes.
        for round in 0..<2 {
            for number in 0..<1000 {
                let text = "key\(number)"
                let bytes = Array(text.utf8) + (round == 0 ? [UInt8](repeating: 0, count: 16) : [])
                #expect(try key(&keys, bytes, at: 0, count: text.utf8.count, made: &made) == text)
            }
        }
    }

    @Test func longKeysAreLeftToTheReader() throws {
        var keys = RecentKeys()
        var made = 0
        #expect(try key(&keys, Array("sixteen bytes!!!".utf8), at: 0, count: 16, made: &made) == nil)
        #expect(made == 0)
    }

    @Test func invalidTextIsTheMakersErrorAndIsNotKept() throws {
        var keys = RecentKeys()
        var made = 0
        let bytes: [UInt8] = [0x61, 0xFF] + [UInt8](repeating: 0, count: 16)
        for _ in 0..<2 {
            #expect(throws: FormatError.self) { try key(&keys, bytes, at: 0, count: 2, made: &made) }
        }
        #expect(made == 2)
    }
}
