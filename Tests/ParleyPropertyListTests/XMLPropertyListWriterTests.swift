import Foundation
import Parley
import ParleyPropertyList
import Testing

/// The XML form is the one Apple's writers produce: what Foundation's `PropertyListSerialization`
/// reads from our document, it writes back byte for byte.
@Suite struct XMLPropertyListWriterTests {
    let plist = PropertyListFormat()

    @Test func writesTheDocumentFoundationWrites() throws {
        // Foundation writes dictionary keys sorted, so these are.
        let value: Value = [
            "array": [1, -2, "text <&> ✓", true, false, [], [:], [[0.5, -0.25]]],
            "date": .date(Date(timeIntervalSinceReferenceDate: 1_000)),
            "dict": ["a": ["b": ["c": "deep"]], "empty": ""],
            "uid": .tagged("uid", .integer(7))
        ]
        let ours = try plist.encode(value, as: "application/x-plist")
        let read = try PropertyListSerialization.propertyList(from: Data(ours), options: [], format: nil)
        let foundations = try PropertyListSerialization.data(fromPropertyList: read, format: .xml, options: 0)
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: foundations, as: UTF8.self))
        #expect(try plist.decode(ours) == value)
    }
}
