public import HTTPTypes
public import Parley

/// A problem details object (RFC 9457): a machine-readable description of an HTTP error, sent as
/// `application/problem+json` or `application/problem+xml`.
///
/// The five members the RFC defines are properties; every other member is an extension member,
/// kept in ``extensions`` as the `Value` it was, in document order.
///
/// ```swift
/// // Server: answer in the format the client accepts (JSON when it says nothing).
/// let problem = ProblemDetails(type: "https://example.com/probs/out-of-credit",
///                              title: "You do not have enough credit.", status: 403,
///                              detail: "Your current balance is 30, but that costs 50.",
///                              extensions: ["balance": 30])
/// let reply = try server.reply(with: problem, for: request)   // application/problem+json
///
/// // Client: read it back from a decoded body.
/// let decoded = ProblemDetails(value: try registry.decode(body, contentType: "application/problem+json"))
/// ```
///
/// Reading follows RFC 9457 §3.1: a member of the wrong type is ignored (as if absent), so a
/// `"status": "403"` string in JSON leaves ``status`` `nil`. See ``init(value:)`` for the XML form.
public struct ProblemDetails: Sendable, Hashable {
    /// `about:blank`: the problem has no meaning beyond its HTTP status (RFC 9457 §4.2.1).
    public static let blankType = "about:blank"
    /// The XML namespace of the `application/problem+xml` form (RFC 9457 Appendix B).
    public static let xmlNamespace = "urn:ietf:rfc:7807"
    /// The names of the members RFC 9457 defines, in the order Parley writes them.
    static let standardMemberNames: [String] = ["type", "title", "status", "detail", "instance"]

    /// A URI reference identifying the problem type. Default ``blankType``.
    public var type: String
    /// A short, human-readable summary of the problem type.
    public var title: String?
    /// The HTTP status code of this occurrence (100 to 999).
    public var status: Int?
    /// A human-readable explanation of this occurrence.
    public var detail: String?
    /// A URI reference identifying this occurrence.
    public var instance: String?
    /// Every other member, in document order, as the values they were. A member named like a
    /// standard member is not written.
    public var extensions: Value.Object

    /// Creates a problem.
    public init(type: String = ProblemDetails.blankType, title: String? = nil, status: Int? = nil,
                detail: String? = nil, instance: String? = nil, extensions: Value.Object = [:]) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = instance
        self.extensions = extensions
    }

    /// Creates an `about:blank` problem for an HTTP status, titled with its reason phrase
    /// (RFC 9457 §4.2.1) when it has one: `.notFound` has, a status written as a number (`404`)
    /// has none.
    ///
    /// ```swift
    /// ProblemDetails(.notFound, detail: "No user 7.")   // title "Not Found", status 404
    /// ```
    public init(_ status: HTTPResponse.Status, detail: String? = nil, instance: String? = nil,
                extensions: Value.Object = [:]) {
        self.init(title: status.reasonPhrase.isEmpty ? nil : status.reasonPhrase, status: status.code,
                  detail: detail, instance: instance, extensions: extensions)
    }
}
