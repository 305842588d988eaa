public import HTTPTypes
public import Parley

/// One request of the live table and what its answer must be.
public struct LiveCase: Sendable, CustomStringConvertible {
    /// What the body of the answer must be.
    public enum BodyExpectation: Sendable {
        /// Not checked.
        case unchecked
        /// No bytes (HEAD).
        case empty
        /// Decodes, by the answer's `Content-Type`, into ``RouteContract/items``.
        case items
        /// Decodes, by the answer's `Content-Type`, into this receipt.
        case receipt(RouteContract.Receipt)
        /// Decodes, by the answer's `Content-Type`, to this value.
        case value(Value)
        /// Is exactly this text.
        case text(String)
        /// Starts with these bytes.
        case prefix([UInt8])
        /// Is an RFC 9457 problem (decoded by the answer's `Content-Type`) with this status, whose
        /// text contains each of `mentions`.
        case problem(status: Int, mentions: [String])
    }

    /// Many copies of the request at once.
    public struct Load: Sendable {
        /// Concurrent tasks.
        public var tasks: Int
        /// Requests each task sends, one after the other.
        public var requestsPerTask: Int

        /// Creates a load.
        public init(tasks: Int, requestsPerTask: Int) {
            self.tasks = tasks
            self.requestsPerTask = requestsPerTask
        }
    }

    /// A short unique name, shown when the case fails.
    public var name: String
    /// The request method.
    public var method: HTTPRequest.Method
    /// The path (and query) under the base URL.
    public var path: String
    /// The request's header fields.
    public var headerFields: HTTPFields
    /// The request body, if any.
    public var body: [UInt8]?
    /// The status the answer must have.
    public var status: Int
    /// The media type (type/subtype, no parameters) the answer's `Content-Type` must have, or
    /// `nil` to leave it unchecked.
    public var contentType: String?
    /// Whether the answer's `Vary` must name `Accept`.
    public var varyAccept: Bool
    /// Fields the answer must have, each with a value containing the given text (case-insensitive).
    public var requiredFields: [(HTTPField.Name, String)]
    /// What the body must be.
    public var expectedBody: BodyExpectation
    /// Sends the request many times at once when set.
    public var load: Load?

    /// Creates a case.
    public init(_ name: String, _ method: HTTPRequest.Method, _ path: String, headerFields: HTTPFields = [:],
                body: [UInt8]? = nil, status: Int, contentType: String? = nil, varyAccept: Bool = false,
                requiredFields: [(HTTPField.Name, String)] = [], expectedBody: BodyExpectation = .unchecked,
                load: Load? = nil) {
        self.name = name
        self.method = method
        self.path = path
        self.headerFields = headerFields
        self.body = body
        self.status = status
        self.contentType = contentType
        self.varyAccept = varyAccept
        self.requiredFields = requiredFields
        self.expectedBody = expectedBody
        self.load = load
    }

    /// The case's name.
    public var description: String { name }
}
