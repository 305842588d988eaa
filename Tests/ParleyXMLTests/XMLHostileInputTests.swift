import Parley
import ParleyXML
import Testing

/// Generated hostile documents: every node a decoder makes (element, attribute, namespace
/// declaration, text, CDATA section, comment, processing instruction) counts against `maxNodes`,
/// in each of the three ways to read XML.
@Suite struct XMLHostileInputTests {
    static let small = DecodingLimits(maxNodes: 1_000)

    /// The error each way of reading gives for `text` under `limits`.
    func errors(_ text: String, limits: DecodingLimits = small) -> [FormatError?] {
        let bytes = Array(text.utf8)
        return [
            Result { try XMLFormat().decode(bytes, limits: limits) }.error,
            Result { try XML.Document(parsing: bytes, limits: limits) }.error,
            Result { try XML.EventReader(bytes, limits: limits).forEachView { _ in } }.error,
        ]
    }

    static let documents: [(String, String)] = [
        ("attributes", "<a " + (0..<2_000).map { "a\($0)=\"\"" }.joined(separator: " ") + "/>"),
        ("namespace declarations", "<a " + (0..<2_000).map { "xmlns:p\($0)=\"u\"" }.joined(separator: " ") + "/>"),
        ("comments", "<r>" + String(repeating: "<!---->", count: 2_000) + "</r>"),
        ("processing instructions", "<r>" + String(repeating: "<?p?>", count: 2_000) + "</r>"),
        ("CDATA sections", "<r>" + String(repeating: "<![CDATA[]]>", count: 2_000) + "</r>"),
        ("texts between elements", "<r>" + String(repeating: "x<a/>", count: 600) + "</r>"),
    ]

    @Test(arguments: documents.map(\.0))
    func everyKindOfNodeCountsAgainstMaxNodes(_ kind: String) throws {
        let text = try #require(Self.documents.first { $0.0 == kind }).1
        for error in errors(text) {
            #expect(error?.code == .limitExceeded, "\(kind): \(String(describing: error))")
            #expect(error?.limit?.name == "maxNodes", "\(kind)")
        }
        // The standard limits take each of them.
        for error in errors(text, limits: .standard) { #expect(error == nil, "\(kind): \(String(describing: error))") }
    }

    @Test func aDocumentAtTheLimitIsRead() throws {
        // The root, 998 attributes and one text: 1,000 nodes.
        let text = "<a " + (0..<998).map { "a\($0)=\"\"" }.joined(separator: " ") + ">x</a>"
        for error in errors(text) { #expect(error == nil) }
        let over = "<a " + (0..<999).map { "a\($0)=\"\"" }.joined(separator: " ") + ">x</a>"
        for error in errors(over) { #expect(error?.limit?.name == "maxNodes") }
    }
}

extension Result where Failure == any Error {
    /// The failure as a `FormatError`, `nil` on success.
    var error: FormatError? {
        if case .failure(let error) = self { return error as? FormatError ?? FormatError(.malformed, format: "test", "\(error)") }
        return nil
    }
}
