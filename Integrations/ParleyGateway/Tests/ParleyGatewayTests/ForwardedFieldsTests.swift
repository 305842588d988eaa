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
        ([("Connection", "ünïcode, close")], true),
        ([("Connection", "clöse")], false),
        ([("Connection", "\u{A0}close")], false),
        ([("X-Connection", "close")], false),
        ([], false),
    ])
    func connectionClosesWhenATokenIsClose(pairs: [(String, String)], closes: Bool) {
        #expect(ForwardedFields.connectionCloses(Self.fields(pairs)) == closes)
        // endToEnd reads it in its own pass over the `Connection` fields.
        var kept = HTTPFields()
        #expect(ForwardedFields.endToEnd(Self.fields(pairs), into: &kept) == closes)
    }

    @Test func theFieldsConnectionNamesAreDroppedWhateverTheirSpacing() {
        let fields = Self.fields([("Connection", " x-a ,, X-B\t"), ("X-A", "1"), ("X-B", "2"), ("X-C", "3"),
                                  ("Keep-Alive", "timeout=5")])
        let kept = ForwardedFields.endToEnd(fields)
        #expect(kept.map(\.name.canonicalName) == ["x-c", "via"])
        #expect(kept[.via] == ForwardedFields.via)
        // `close` and `keep-alive` name fields too; a token that is no field name names none.
        let named = Self.fields([("Connection", "Keep-Alive, close, ünï, x-a"), ("Close", "1"), ("X-A", "2"),
                                 ("X-C", "3"), ("Keep-Alive", "timeout=5")])
        #expect(ForwardedFields.endToEnd(named).map(\.name.canonicalName) == ["x-c", "via"])
    }

    @Test func fieldsWrittenIntoAListTheCallerReusesReplaceWhatItHeld() {
        var reused = Self.fields([("X-Old", "1"), ("X-Older", "2"), ("Accept", "text/plain")])
        let fields = Self.fields([("Connection", "x-a"), ("X-A", "1"), ("Accept", "*/*"), ("X-B", "2")])
        ForwardedFields.endToEnd(fields, into: &reused)
        #expect(reused.map(\.name.canonicalName) == ["accept", "x-b", "via"])
        #expect(reused.map(\.value) == ["*/*", "2", ForwardedFields.via])
        #expect(Array(reused) == Array(ForwardedFields.endToEnd(fields)))
    }

    @Test func aFieldWrittenOverOneThatDiffersOnlyInItsNamesCaseKeepsItsOwnCase() {
        var reused = Self.fields([("x-a", "1"), ("X-Parley-Placeholder", ""), ("Accept", "*/*")])
        reused.write(HTTPField(name: HTTPField.Name("X-A")!, value: "1"), at: 0)
        reused.write(HTTPField(name: HTTPField.Name("x-parley-placeholder")!, value: ""), at: 1)
        reused.write(HTTPField(name: HTTPField.Name("Accept")!, value: "*/*"), at: 2)
        reused.write(HTTPField(name: HTTPField.Name("X-B")!, value: "2"), at: 3)
        #expect(reused.map(\.name.rawName) == ["X-A", "x-parley-placeholder", "Accept", "X-B"])
        reused.truncate(to: 1)
        #expect(reused.map(\.name.rawName) == ["X-A"])
    }

    @Test func theHopByHopNamesAreFoundByLengthAndNothingElse() {
        for name in ForwardedFields.hopByHop { #expect(ForwardedFields.isHopByHop(name), "\(name)") }
        for name in ["User-Agent", "Accept", "TE2", "Trailers", "Upgrade-Insecure-Requests", "Connectio", "Keep-Alivf",
                     "Content-Length", "Transfer-Encodinh", "Proxy-Authorizatio"] {
            #expect(!ForwardedFields.isHopByHop(HTTPField.Name(name)!), "\(name)")
        }
    }
}
