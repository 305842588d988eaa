import HTTPTypes
import Parley
import ParleyHTTP
import ParleyXML
import Testing

/// Problem details in `application/problem+xml` (RFC 9457 Appendix B) through the XML format.
@Suite struct ProblemDetailsXMLTests {
    let registry = Registry(formats: [XMLFormat()])

    /// The example of RFC 9457 Appendix B.
    static let rfcExample = """
        <?xml version="1.0" encoding="UTF-8"?>
        <problem xmlns="urn:ietf:rfc:7807">
          <type>https://example.com/probs/out-of-credit</type>
          <title>You do not have enough credit.</title>
          <detail>Your current balance is 30, but that costs 50.</detail>
          <instance>https://example.net/account/12345/msgs/abc</instance>
          <balance>30</balance>
          <accounts>
            <i>https://example.net/account/12345</i>
            <i>https://example.net/account/67890</i>
          </accounts>
        </problem>
        """

    @Test func readsTheRFCExampleFromADecodedBody() throws {
        let value = try registry.decode(Array(Self.rfcExample.utf8), contentType: "application/problem+xml")
        let problem = try #require(ProblemDetails(value: value))
        #expect(problem.type == "https://example.com/probs/out-of-credit")
        #expect(problem.title == "You do not have enough credit.")
        #expect(problem.detail == "Your current balance is 30, but that costs 50.")
        #expect(problem.instance == "https://example.net/account/12345/msgs/abc")
        #expect(problem.status == nil)
        #expect(problem.extensions == ["balance": "30",
                                       "accounts": ["i": ["https://example.net/account/12345",
                                                          "https://example.net/account/67890"]]])
        #expect(ParleyError.problem(in: Array(Self.rfcExample.utf8), contentType: "application/problem+xml",
                                    registry: registry) == problem)
    }

    @Test func readsTheStatusFromItsText() throws {
        let body = #"<problem xmlns="urn:ietf:rfc:7807"><title>Forbidden</title><status>403</status></problem>"#
        let problem = ParleyError.problem(in: Array(body.utf8), contentType: "application/problem+xml; charset=utf-8",
                                          registry: registry)
        #expect(problem == ProblemDetails(title: "Forbidden", status: 403))
    }

    @Test func readsAPrefixedRootAndAnEmptyOne() throws {
        let prefixed = #"<p:problem xmlns:p="urn:ietf:rfc:7807">"#
            + #"<p:title>Gone</p:title><p:status>410</p:status></p:problem>"#
        #expect(ParleyError.problem(in: Array(prefixed.utf8), contentType: "application/problem+xml",
                                    registry: registry)
                == ProblemDetails(title: "Gone", status: 410))
        let empty = #"<problem xmlns="urn:ietf:rfc:7807"/>"#
        #expect(ParleyError.problem(in: Array(empty.utf8), contentType: "application/problem+xml", registry: registry)
                == ProblemDetails())
    }

    @Test func anErrorBodyLabelledProblemXMLWithoutTheNamespaceStillReads() {
        let body = "<problem><title>Legacy</title><status>500</status></problem>"
        #expect(ParleyError.problem(in: Array(body.utf8), contentType: "application/problem+xml", registry: registry)
                == ProblemDetails(title: "Legacy", status: 500))
    }

    @Test(arguments: [
        ("<error><title>x</title></error>", "application/problem+xml"),
        ("<problem><title>x</title>", "application/problem+xml"),
        (#"<problem xmlns="urn:ietf:rfc:7807"><title>x</title></problem>"#, "application/xml"),
    ])
    func otherBodiesAreNotProblems(body: String, contentType: String) {
        #expect(ParleyError.problem(in: Array(body.utf8), contentType: contentType, registry: registry) == nil)
    }

    @Test func repliesInTheXMLFormOfAppendixB() throws {
        let problem = ProblemDetails(type: "https://example.com/probs/out-of-credit",
                                     title: "You do not have enough credit.",
                                     status: 403, extensions: ["balance": 30,
                                                               "accounts": ["/account/12345", "/account/67890"]])
        let reply = try ParleyServer(registry: registry).reply(with: problem, accepting: "application/xml")
        #expect(reply.contentType.description == "application/problem+xml; charset=utf-8")

        let document = try XML.Document(parsing: reply.body)
        #expect(document.root.name.localName == "problem")
        #expect(document.root.name.namespaceURI == "urn:ietf:rfc:7807")
        let items = document.root.firstChild(named: "accounts")?.children(named: "i", namespaceURI: "urn:ietf:rfc:7807")
        #expect(items?.map(\.textContent) == ["/account/12345", "/account/67890"])
        #expect(document.root.firstChild(named: "status")?.textContent == "403")

        let read = try #require(ParleyError.problem(in: reply.body, contentType: reply.headerFields[.contentType],
                                                    registry: registry))
        #expect(read.type == problem.type)
        #expect(read.title == problem.title)
        #expect(read.status == 403)
        #expect(read.extensions == ["balance": "30", "accounts": ["i": ["/account/12345", "/account/67890"]]])
    }

    @Test func anXMLOnlyRegistryRepliesInXMLWhenAcceptSaysNothing() throws {
        let reply = try ParleyServer(registry: registry).reply(with: ProblemDetails(.notFound), accepting: nil)
        #expect(reply.contentType.essence == "application/problem+xml")
        #expect(ProblemDetails(value: try XMLFormat().decode(reply.body)) == ProblemDetails(.notFound))
    }
}
