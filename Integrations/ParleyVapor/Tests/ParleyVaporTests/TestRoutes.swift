import Parley
import ParleyVapor
import Vapor

/// A Codable resource.
struct User: Content, Equatable {
    var id: Int
    var name: String
    var tags: [String]
    var active: Bool
}

/// A flat record, for formats of tables (CSV).
struct Row: Content, Equatable {
    var id: Int
    var name: String
}

/// A value tree every format can write, CSV included (records of scalars).
let flatTree: Value = [["id": 7, "name": "Ada", "ratio": 0.5, "active": true],
                       ["id": 8, "name": "Grace", "ratio": 1.5, "active": false]]

let ada = User(id: 7, name: "Ada Lovelace", tags: ["math", "engines"], active: true)

/// The routes the Vapor-specific tests call.
func addTestRoutes(_ app: Application) throws {
    // Negotiated by Accept.
    app.get("user") { _ in Negotiated(encoding: ada) }
    app.get("tree") { _ in Negotiated(flatTree) }
    // Vapor's own content path: the body decoded by the coder ContentConfiguration holds for its
    // Content-Type, the answer written as the type named in the query (`?as=application/yaml`).
    app.post("content") { req -> Response in
        let user = try req.content.decode(User.self)
        let response = Response()
        let type = (try? req.query.get(String.self, at: "as")).flatMap { MediaType($0) } ?? "application/json"
        try response.content.encode(user, as: HTTPMediaType(type: type.type, subType: type.subtype))
        return response
    }
    // A Content returned as it is: Vapor writes its default type, JSON, with Parley's JSON coder.
    app.get("content") { _ in ada }
    app.post("lines") { req -> Response in
        let lines = try req.content.decode([Line].self)
        let response = Response()
        try response.content.encode(lines, as: HTTPMediaType(type: "text", subType: "csv"))
        return response
    }
    app.post("note") { req -> Response in
        let note = try req.content.decode(Note.self)
        let response = Response()
        try response.content.encode(note, as: .xml)
        return response
    }
    // Parley's request path, answered negotiated.
    app.post("echo") { req in Negotiated(encoding: try req.parley.decode(User.self)) }
    app.post("upload") { req in Negotiated(try req.parley.decode()) }
    // A plain Vapor error and an unexpected one.
    app.get("missing") { _ -> String in throw Abort(.notFound, reason: "no such thing") }
    app.get("crash") { _ -> String in throw CocoaLikeError() }
}

struct CocoaLikeError: Error {}
