import AsyncHTTPClient
import HTTPTypes
import NIOCore
import NIOHTTP1
import ParleyAsyncHTTPClient
import Testing

@Suite struct StreamingTests {
    @Test func fiftyMegabytesArriveCompleteChunkByChunk() async throws {
        let total = 50_000_000, chunkSize = 64 << 10
        // 17 distinct chunks, sent in turn: the checksum sees order, loss and duplication.
        let chunks = (0..<17).map { Pattern.chunk($0, size: chunkSize) }
        let sent = Shared(Pattern.Checksum())
        let (received, chunkCount, largestChunk) = try await TestServer.run(handler: { _, writer in
            try await writer.writeHead(headers: [("Content-Type", "application/octet-stream"),
                                                 ("Content-Length", String(total))])
            var checksum = Pattern.Checksum()
            var index = 0
            while checksum.count < total {
                let chunk = chunks[index % chunks.count].prefix(total - checksum.count)
                checksum.add(Array(chunk))
                try await writer.writeBody(chunk)
                index += 1
            }
            try await writer.write(.end(nil))
            sent.value = checksum
        }) { port in
            let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/big")
            let transport = AsyncHTTPClientTransport(maxResponseBodyBytes: 1 << 20)   // stream() does not apply it
            let response = try await transport.stream(request)
            #expect(response.response.status == .ok)
            #expect(response.response.headerFields[.contentLength] == String(total))
            var checksum = Pattern.Checksum()
            var count = 0, largest = 0
            for try await chunk in response.body {
                checksum.add(chunk)
                count += 1
                largest = max(largest, chunk.readableBytes)
            }
            return (checksum, count, largest)
        }
        #expect(received.count == total)
        #expect(received == sent.value)
        #expect(chunkCount > 50)
        #expect(largestChunk <= 1 << 20, "a chunk of \(largestChunk) bytes: the body was gathered")
    }

    @Test func headTimeoutDoesNotCutASlowBody() async throws {
        let body = try await TestServer.run(handler: { _, writer in
            try await writer.writeHead(headers: [("Content-Length", "10")])
            try await writer.writeBody(Array("hello".utf8))
            try await Task.sleep(for: .seconds(3))   // past the head timeout
            try await writer.writeBody(Array("world".utf8))
            try await writer.write(.end(nil))
        }) { port in
            let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/slow")
            // Generous for the head on a loaded machine, shorter than the stall in the body.
            let transport = AsyncHTTPClientTransport(responseHeadTimeout: .seconds(2))
            return try await transport.stream(request).collect(upTo: 100)
        }
        #expect(body == Array("helloworld".utf8))
    }

    @Test func streamedRequestBodyIsSent() async throws {
        let seen = Shared<[UInt8]>([])
        let parts = (0..<8).map { Pattern.chunk($0, size: 10_000) }
        try await TestServer.run(handler: { request, writer in
            seen.value = request.body
            try await writer.respond(.accepted)
        }) { port in
            let request = HTTPRequest(method: .put, scheme: "http", authority: "127.0.0.1:\(port)", path: "/up")
            let body = HTTPClientRequestBodyStream(parts: parts)
            let response = try await AsyncHTTPClientTransport().stream(request, body: .stream(body, length: .unknown))
            #expect(response.response.status == .accepted)
            _ = try await response.collect(upTo: 0)
        }
        #expect(seen.value == parts.flatMap { $0 })
    }
}

/// Request body parts as an asynchronous sequence, as a proxy forwards them.
struct HTTPClientRequestBodyStream: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    var parts: [[UInt8]]
    func makeAsyncIterator() -> AsyncStream<ByteBuffer>.Iterator {
        AsyncStream { continuation in
            for part in parts { continuation.yield(ByteBuffer(bytes: part)) }
            continuation.finish()
        }.makeAsyncIterator()
    }
}
