import HTTPTypes
import Parley
import ParleyHTTP
import Testing

@Suite struct ProblemDetailsTests {
    /// The example of RFC 9457 §3, as a JSON body decodes.
    static let rfcExample: Value = [
        "type": "https://example.com/probs/out-of-credit",
        "title": "You do not have enough credit.",
        "status": 403,
        "detail": "Your current balance is 30, but that costs 50.",
        "instance": "/account/12345/msgs/abc",
        "balance": 30,
        "accounts": ["/account/12345", "/account/67890"],
    ]

    @Test func readsTheRFCExample() throws {
        let problem = try #require(ProblemDetails(value: Self.rfcExample))
        #expect(problem.type == "https://example.com/probs/out-of-credit")
        #expect(problem.title == "You do not have enough credit.")
        #expect(problem.status == 403)
        #expect(problem.detail == "Your current balance is 30, but that costs 50.")
        #expect(problem.instance == "/account/12345/msgs/abc")
        #expect(problem.extensions == ["balance": 30, "accounts": ["/account/12345", "/account/67890"]])
    }

    @Test func anEmptyObjectIsABlankProblem() throws {
        let problem = try #require(ProblemDetails(value: [:]))
        #expect(problem == ProblemDetails())
        #expect(problem.type == "about:blank")
        #expect(problem.title == nil && problem.status == nil && problem.detail == nil && problem.instance == nil)
        #expect(problem.extensions.isEmpty)
    }

    @Test(arguments: [Value.null, "problem", 403, [["type": "x"]]])
    func onlyObjectsAreProblems(value: Value) {
        #expect(ProblemDetails(value: value) == nil)
    }

    /// RFC 9457 §3.1: "If a member's value type does not match the specified type, the member
    /// MUST be ignored".
    @Test(arguments: [
        ("type", 1), ("type", nil), ("title", true), ("title", ["x"]), ("detail", 3.5), ("instance", ["a": "b"]),
        ("status", "403"), ("status", 403.5), ("status", true), ("status", 42), ("status", 1000), ("status", -403),
    ] as [(String, Value)])
    func membersOfTheWrongTypeAreIgnored(name: String, value: Value) throws {
        let problem = try #require(ProblemDetails(value: [name: value, "detail2": "kept"]))
        #expect(problem == ProblemDetails(extensions: ["detail2": "kept"]))
        #expect(problem.extensions[name] == nil)
    }

    @Test func statusAcceptsAnyIntegralNumber() {
        #expect(ProblemDetails(value: ["status": .number("404")])?.status == 404)
        #expect(ProblemDetails(value: ["status": 404.0])?.status == 404)
        #expect(ProblemDetails(value: ["status": 100])?.status == 100)
        #expect(ProblemDetails(value: ["status": 999])?.status == 999)
    }

    @Test func extensionsKeepTheirOrderValuesAndDuplicates() throws {
        let members: [Value.Object.Member] = [
            .init(key: "zeta", value: .bytes([1, 2])), .init(key: "title", value: "T"),
            .init(key: "alpha", value: ["nested": [1, .null, .number("1e400")]]), .init(key: "zeta", value: "again"),
        ]
        let problem = try #require(ProblemDetails(value: .object(Value.Object(members))))
        #expect(problem.title == "T")
        #expect(problem.extensions.members == [members[0], members[2], members[3]])
    }

    @Test func writesTheJSONFormStandardMembersFirst() {
        var problem = ProblemDetails(title: "Out of credit", status: 403,
                                     extensions: ["balance": 30, "title": "shadowed"])
        problem.instance = "/msgs/abc"
        #expect(problem.value == ["type": "about:blank", "title": "Out of credit", "status": 403,
                                  "instance": "/msgs/abc", "balance": 30])
    }

    @Test func theJSONFormRoundTrips() throws {
        let problem = try #require(ProblemDetails(value: Self.rfcExample))
        #expect(problem.value == Self.rfcExample)
        #expect(ProblemDetails(value: problem.value) == problem)
    }

    @Test func aStatusMakesABlankProblemTitledWithItsReasonPhrase() {
        let problem = ProblemDetails(.notFound, detail: "No user 7.")
        #expect(problem == ProblemDetails(type: "about:blank", title: "Not Found", status: 404, detail: "No user 7."))
        // A status made from a number has no reason phrase, so the problem has no title.
        #expect(ProblemDetails(404) == ProblemDetails(status: 404))
        #expect(ProblemDetails(HTTPResponse.Status(code: 599, reasonPhrase: "Network Timeout"))
                == ProblemDetails(title: "Network Timeout", status: 599))
    }

    // MARK: The XML form (RFC 9457 Appendix B), as ParleyXML maps it to a value

    @Test func readsTheXMLFormWithStatusFromText() throws {
        let value: Value = ["problem": [
            "@xmlns": "urn:ietf:rfc:7807",
            "type": "https://example.com/probs/out-of-credit",
            "title": "You do not have enough credit.",
            "status": " 403\n",
            "balance": "30",
            "accounts": ["i": ["https://example.net/account/12345", "https://example.net/account/67890"]],
        ]]
        let problem = try #require(ProblemDetails(value: value))
        #expect(problem.type == "https://example.com/probs/out-of-credit")
        #expect(problem.title == "You do not have enough credit.")
        #expect(problem.status == 403)
        #expect(problem.extensions
                == ["balance": "30",
                    "accounts": ["i": ["https://example.net/account/12345", "https://example.net/account/67890"]]])
    }

    @Test func readsAPrefixedXMLRoot() throws {
        let value: Value = ["p:problem": ["@xmlns:p": "urn:ietf:rfc:7807", "p:title": "Gone", "p:status": "410",
                                          "x:trace": "abc"]]
        let problem = try #require(ProblemDetails(value: value))
        #expect(problem == ProblemDetails(title: "Gone", status: 410, extensions: ["x:trace": "abc"]))
    }

    @Test func aProblemRootOutsideTheNamespaceIsAnExtensionMember() throws {
        let value: Value = ["problem": ["title": "not RFC 9457 XML"]]
        let problem = try #require(ProblemDetails(value: value))
        #expect(problem.title == nil)
        #expect(problem.extensions == ["problem": ["title": "not RFC 9457 XML"]])
    }

    @Test func aStatusStringIsOnlyReadInTheXMLForm() {
        #expect(ProblemDetails(value: ["status": "403"])?.status == nil)
        #expect(ProblemDetails(value: ["problem": ["@xmlns": "urn:ietf:rfc:7807", "status": "403"]])?.status == 403)
        #expect(ProblemDetails(value: ["problem": ["@xmlns": "urn:ietf:rfc:7807", "status": "4o3"]])?.status == nil)
    }

    @Test func writesTheXMLFormWithArraysAsItems() {
        let problem = ProblemDetails(title: "T", status: 400,
                                     extensions: ["errors": [["field": "a", "codes": [1, 2]], "b"]])
        #expect(problem.xmlValue == ["problem": [
            "@xmlns": "urn:ietf:rfc:7807", "type": "about:blank", "title": "T", "status": 400,
            "errors": ["i": [["field": "a", "codes": ["i": [1, 2]]], "b"]],
        ]])
    }
}
