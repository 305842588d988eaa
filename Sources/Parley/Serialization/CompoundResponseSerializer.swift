public import HTTPTypes

/// Tries serializers in order and returns the first success; when all fail, throws a
/// ``ParleyError`` with ``ParleyError/Code/noSerializerSucceeded`` whose
/// ``ParleyError/underlying`` lists every serializer's error.
public struct CompoundResponseSerializer<Output: Sendable>: ResponseSerializer {
    /// The serializers, tried first to last.
    public var serializers: [any ResponseSerializer<Output>]

    /// Creates a compound serializer.
    public init(_ serializers: [any ResponseSerializer<Output>]) {
        self.serializers = serializers
    }

    public func serialize(_ response: HTTPResponse, body: [UInt8], request: HTTPRequest?) throws -> Output {
        var errors: [any Error & Sendable] = []
        for serializer in serializers {
            do {
                return try serializer.serialize(response, body: body, request: request)
            } catch {
                errors.append(error)
            }
        }
        let reasons = errors.enumerated().map { "\($0.offset + 1)) \(Self.summary($0.element))" }
        throw ParleyError(.noSerializerSucceeded,
                          "all \(serializers.count) serializers failed: \(reasons.joined(separator: "; "))",
                          response: response, body: body,
                          receivedContentType: response.headerFields[.contentType], underlying: errors)
    }

    private static func summary(_ error: any Error) -> String {
        (error as? ParleyError)?.message ?? "\(error)"
    }
}
