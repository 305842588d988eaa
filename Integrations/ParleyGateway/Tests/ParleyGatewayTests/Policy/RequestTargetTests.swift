@testable import ParleyGateway
import Testing

/// Path normalisation before routing and forwarding (RFC 3986 §6.2.2 and §5.2.4).
@Suite(.timeLimit(.minutes(2))) struct RequestTargetTests {
    @Test(arguments: [
        ("/api/users", "/api/users"),
        ("/%61pi/users", "/api/users"),
        ("/%41%5a%7e%2D%2e%5F", "/AZ~-._"),
        ("//api//users", "/api/users"),
        ("/./api/./users", "/api/users"),
        ("/api/x/../users", "/api/users"),
        ("/api/x/%2e%2e/users", "/api/users"),
        ("/api/x/%2E./users", "/api/users"),
        ("/api/users/", "/api/users/"),
        ("/api/users/.", "/api/users/"),
        ("/api/users/..", "/api/"),
        ("/api/..", "/"),
        ("/", "/"),
        ("/.", "/"),
        ("/a%20b/%e2%82%ac", "/a%20b/%E2%82%AC"),
        ("/a..b/.c/..d", "/a..b/.c/..d"),
        ("/api/users?q=/../x&y=%2F", "/api/users?q=/../x&y=%2F"),
        ("/%61pi?", "/api?"),
        ("/a//?q", "/a/?q"),
        ("/a/.?q=1", "/a/?q=1"),
        ("/a/..?q", "/?q"),
        ("/?q=%2F", "/?q=%2F"),
        ("/...", "/..."),
        ("*", "*"),
    ])
    func normalises(target: String, expected: String) throws {
        #expect(try RequestTarget.normalized(target) == expected)
    }

    /// A normalised target is normalised already: normalising it again (the path a request takes
    /// when nothing in it needs rewriting) leaves it as it is.
    @Test(arguments: ["/api/users", "//api//users", "/./api/./users", "/api/users/.", "/api/users/..", "/.",
                      "/%61pi/users", "/a%20b/%e2%82%ac", "/a..b/.c/..d", "/api/users?q=/../x", "/%61pi?", "/"])
    func normalisingTwiceChangesNothing(target: String) throws {
        let once = try RequestTarget.normalized(target)
        #expect(try RequestTarget.normalized(once) == once)
    }

    @Test(arguments: [
        ("/..", "climbs above"),
        ("/api/../..", "climbs above"),
        ("/api/%2e%2e/%2E%2E/etc/passwd", "climbs above"),
        ("/api/..%2Fsecret", "encoded '/'"),
        ("/api%2fsecret", "encoded '/'"),
        ("/api/%5C..", "encoded '/' or '\\'"),
        ("/api\\..\\secret", "'\\'"),
        ("/api/%00", "NUL"),
        ("/api/%", "malformed"),
        ("/api/%4", "malformed"),
        ("/api/%zz", "malformed"),
        ("/a\\b", "'\\'"),
        ("/a/../..?q", "climbs above"),
        ("api", "not a path"),
        ("", "not a path"),
    ])
    func rejects(target: String, reason: String) {
        #expect {
            try RequestTarget.normalized(target)
        } throws: { error in
            (error as? RequestTarget.Rejection)?.reason.contains(reason) == true
        }
    }
}
