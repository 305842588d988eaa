import HTTPTypes
@testable import ParleyGateway
import Testing

/// The header rules of a proxy: `Connection` read as a list of tokens, hop-by-hop fields dropped.
@Suite struct ForwardedFieldsTests {
    static func fields(_ pairs: [(String, String)]) -> HTTPFields {
        HTTPFields(pairs.map { HTTPField(name: HTTPField.Name($0.0)!, value: $0.1) })
    }

    @Test(arguments: [
        ([("Connection", "close")], true),
        ([("Connection", "keep-alive, Close")], true),
        ([("Connection", " \tCLOSE \t")], true),
        ([("Connection", "keep-alive"), ("Connection", "upgrade,close")], true),
        ([("Connection", "closed")], false),
        ([("Connection", "clos")], false),
        ([("Connection", ", ,")], false),
        ([("X-Connection", "close")], false),
        ([], false),
    ])
    func connectionClosesWhenATokenIsClose(pairs: [(String, String)], closes: Bool) {
        #expect(ForwardedFields.connectionCloses(Self.fields(pairs)) == closes)
    }

    @Test func theFieldsConnectionNamesAreDroppedWhateverTheirSpacing() {
        let fields = Self.fields([("Connection", " x-a ,, X-B\t"), ("X-A", "1"), ("X-B", "2"), ("X-C", "3"),
                                  ("Keep-Alive", "timeout=5")])
        let kept = ForwardedFields.endToEnd(fields)
        #expect(kept.map(\.name.canonicalName) == ["x-c", "via"])
        #expect(kept[.via] == ForwardedFields.via)
    }

    @Test func aCombinedValueReadsAsTheSubscript() {
        let twice = Self.fields([("Accept", "application/json"), ("Accept", "application/yaml;q=0.5")])
        #expect(twice.combinedValue(of: .accept) == twice[.accept])
        #expect(twice.combinedValue(of: .accept) == "application/json, application/yaml;q=0.5")
        let once = Self.fields([("Accept", "application/json")])
        #expect(once.combinedValue(of: .accept) == "application/json")
        #expect(once.combinedValue(of: .contentType) == nil)
    }
}
