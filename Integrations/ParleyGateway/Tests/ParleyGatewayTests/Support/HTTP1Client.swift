import NIOCore
import NIOHTTP1
import NIOPosix

/// A response as a test reads it: status, fields, whole body.
struct Answer: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers[name].isEmpty ? nil : headers[name].joined(separator: ", ") }
}

/// Why ``fetch(_:method:headers:body:timeout:)`` got no answer.
enum FetchError: Error, CustomStringConvertible {
    case notAnHTTPURL(String)
    case timedOut(TimeAmount)
    case bodyTooLarge(Int)
    case closedBeforeTheAnswer

    var description: String {
        switch self {
        case .notAnHTTPURL(let url): "not an http://host:port URL: \(url)"
        case .timedOut(let limit): "no whole answer within \(limit)"
        case .bodyTooLarge(let limit): "the answer's body is over \(limit) bytes"
        case .closedBeforeTheAnswer: "the connection closed before a whole answer"
        }
    }
}

/// Sends one request on a connection of its own and reads the whole answer (at most 256 MiB).
///
/// The client is SwiftNIO's HTTP/1.1 codec, the parser AsyncHTTPClient runs, over a
/// `NIOAsyncChannel`: `Host` is the URL's authority, `Content-Length` is set when there is a body,
/// and the request target is the URL's text after the authority, sent as written (dot segments and
/// escapes included). The connection is closed once the answer is read; `timeout` bounds the whole
/// exchange.
func fetch(_ url: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: [UInt8]? = nil,
           timeout: TimeAmount = .seconds(30)) async throws -> Answer {
    var kept: [UInt8] = []
    var answer = try await fetch(url, method: method, headers: headers, body: body, timeout: timeout) { buffer in
        guard kept.count + buffer.readableBytes <= 256 << 20 else { throw FetchError.bodyTooLarge(256 << 20) }
        kept += buffer.readableBytesView
    }
    answer.body = kept
    return answer
}

/// Sends one request like ``fetch(_:method:headers:body:timeout:)`` and hands each piece of the
/// answer's body to `read` as it arrives, reading on only when `read` returns: the answer's
/// ``Answer/body`` is empty.
func fetch(_ url: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: [UInt8]? = nil,
           timeout: TimeAmount = .seconds(30),
           eachBodyPiece read: (ByteBuffer) throws -> Void) async throws -> Answer {
    let (authority, target) = try requestTarget(of: url)
    let colon = try authority.lastIndex(of: ":") ?? { throw FetchError.notAnHTTPURL(url) }()
    guard let port = Int(authority[authority.index(after: colon)...]) else { throw FetchError.notAnHTTPURL(url) }
    let host = authority[..<colon].trimmingPrefix("[").prefix { $0 != "]" }

    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connectTimeout(timeout)
        .connect(host: String(host), port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                    wrappingChannelSynchronously: channel)
            }
        }
    // The deadline closes the connection, which ends the reading below.
    let deadline = NIODeadline.now() + timeout
    let closing = channel.channel.eventLoop.scheduleTask(deadline: deadline) { channel.channel.close(promise: nil) }
    defer { closing.cancel() }

    var fields = HTTPHeaders(headers)
    if !fields.contains(name: "Host") { fields.add(name: "Host", value: authority) }
    if let body { fields.replaceOrAdd(name: "Content-Length", value: String(body.count)) }
    let head = HTTPRequestHead(version: .http1_1, method: method, uri: target, headers: fields)

    let answer: Answer? = try await channel.executeThenClose { inbound, outbound in
        // An answer may come before the whole request is written (the server refuses the body): it
        // is what counts, so a failed write is reported only when no answer comes.
        var writeError: (any Error)?
        do {
            try await outbound.write(.head(head))
            if let body, !body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
            try await outbound.write(.end(nil))
        } catch {
            writeError = error
        }
        var answer: Answer?
        do {
            for try await part in inbound {
                switch part {
                case .head(let head) where head.status.code >= 200:
                    answer = Answer(status: Int(head.status.code), headers: head.headers, body: [])
                case .head:
                    continue  // An interim answer.
                case .body(let buffer):
                    try read(buffer)
                case .end:
                    return answer
                }
            }
        } catch let error as FetchError {
            throw error
        } catch {
            if NIODeadline.now() >= deadline { throw FetchError.timedOut(timeout) }
            throw writeError ?? error
        }
        return nil
    }
    if let answer { return answer }
    if NIODeadline.now() >= deadline { throw FetchError.timedOut(timeout) }
    throw FetchError.closedBeforeTheAnswer
}

/// `http://host:port/target` split into its authority and its request target (at least `/`; any
/// fragment dropped).
private func requestTarget(of url: String) throws -> (authority: String, target: String) {
    guard url.hasPrefix("http://") else { throw FetchError.notAnHTTPURL(url) }
    let rest = url.dropFirst("http://".count).prefix { $0 != "#" }
    let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
    let target = rest[slash...]
    return (String(rest[..<slash]), target.hasPrefix("/") ? String(target) : "/" + target)
}
