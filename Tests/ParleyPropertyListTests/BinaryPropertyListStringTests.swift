import FoundationEssentials
import Parley
import ParleyPropertyList
import ParleyTestKit
import Testing

/// ASCII-marked strings (marker 0x5_) of binary property lists that hold other bytes.
@Suite struct BinaryPropertyListStringTests {
    /// A binary plist whose only object is an ASCII-marked string of `bytes` (fewer than 15).
    static func plist(asciiString bytes: [UInt8]) -> [UInt8] {
        let object = [0x50 | UInt8(bytes.count)] + bytes
        let offsetTable = 8 + object.count
        let trailer: [UInt8] = [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0, 0, 0, 0, UInt8(offsetTable)]
        return Array("bplist00".utf8) + object + [8] + trailer
    }

    @Test("UTF-8 in an ASCII-marked string reads as UTF-8, not as Latin-1 mojibake")
    func utf8() throws {
        let value = try PropertyListFormat().decode(
            Self.plist(asciiString: Array("90’s".utf8)), as: "application/x-bplist")
        #expect(value == "90’s")
        #expect(try PropertyListFormat().decode(Self.plist(asciiString: Array("plain".utf8))) == "plain")
    }

    @Test("Bytes that are neither ASCII nor UTF-8 are refused with their offset")
    func invalid() {
        #expect { try PropertyListFormat().decode(Self.plist(asciiString: [0x61, 0xE9, 0x62])) } throws: { error in
            guard let error = error as? FormatError else { return false }
            return error.code == .malformed && error.location?.byteOffset == 10 && error.description.contains("0xE9")
        }
    }

    @Test("The iTunes library in the real-world corpus reads its titles as written")
    func iTunesLibrary() throws {
        guard let folder = Corpora.directory("real-world/documents") else {
            print(Corpora.missingMessage("real-world/documents"))
            return
        }
        let bytes = try [UInt8](
            Data(contentsOf: folder.appendingPathComponent("plist/node-bplist-parser/iTunes-small.bplist")))
        let value = try PropertyListFormat().decode(bytes, as: "application/x-bplist")
        func strings(_ value: Value) -> [String] {
            switch value {
            case .string(let text): [text]
            case .array(let items): items.flatMap(strings)
            case .object(let object): object.flatMap { strings($0.value) }
            default: []
            }
        }
        let all = strings(value)
        #expect(all.contains("90’s Music"))
        #expect(!all.contains { $0.contains("â\u{80}") || $0.contains("Ã") }, "no Latin-1 mojibake")
    }
}
