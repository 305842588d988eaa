public import HTTPTypes
public import Parley

extension Client {
    /// `GET`, parameters in the query; the body decoded into `T` through `registry`.
    ///
    /// Unless `headerFields` has one, the request's `Accept` lists the registry's structured
    /// formats only (`T` is never read from plain text or raw bytes).
    public func get<T: Decodable & Sendable>(_ path: String, parameters: Value? = nil, headerFields: HTTPFields = [:],
                                             as type: T.Type) async throws(ParleyError) -> ClientResponse<T> {
        var fields = headerFields
        if !fields.contains(.accept) {
            let accept = registry.acceptHeaderValue(structuredOnly: true)
            if !accept.isEmpty { fields[.accept] = accept }
        }
        return try await send(.get, path, parameters: parameters, headerFields: fields,
                              responseSerializer: DecodableResponseSerializer<T>(registry: registry))
    }

    /// `GET`, parameters in the query; the body decoded to a `Value` through `registry`.
    public func get(_ path: String, parameters: Value? = nil, headerFields: HTTPFields = [:])
        async throws(ParleyError) -> ClientResponse<Value> {
        try await send(
            .get, path, parameters: parameters, headerFields: headerFields, responseSerializer: valueSerializer)
    }

    /// `GET` with a response serializer of your choice.
    public func get<S: ResponseSerializer>(
        _ path: String, parameters: Value? = nil, headerFields: HTTPFields = [:],
        responseSerializer: S
    ) async throws(ParleyError) -> ClientResponse<S.Output> {
        try await send(
            .get, path, parameters: parameters, headerFields: headerFields, responseSerializer: responseSerializer)
    }

    /// `HEAD`, parameters in the query; an empty body is accepted and decodes to `null`.
    public func head(_ path: String, parameters: Value? = nil, headerFields: HTTPFields = [:])
        async throws(ParleyError) -> ClientResponse<Value> {
        try await send(
            .head, path, parameters: parameters, headerFields: headerFields, responseSerializer: valueSerializer)
    }

    /// `POST`, parameters in the body (a `ParameterRequestSerializer` places them as its `bodyEncoding` says).
    public func post(_ path: String, parameters: Value? = nil, headerFields: HTTPFields = [:])
        async throws(ParleyError) -> ClientResponse<Value> {
        try await send(
            .post, path, parameters: parameters, headerFields: headerFields, responseSerializer: valueSerializer)
    }

    /// `POST` with a response serializer of your choice.
    public func post<S: ResponseSerializer>(
        _ path: String, parameters: Value? = nil, headerFields: HTTPFields = [:],
        responseSerializer: S
    ) async throws(ParleyError) -> ClientResponse<S.Output> {
        try await send(
            .post, path, parameters: parameters, headerFields: headerFields, responseSerializer: responseSerializer)
    }

    /// `PUT`, parameters in the body.
    public func put(_ path: String, parameters: Value? = nil, headerFields: HTTPFields = [:])
        async throws(ParleyError) -> ClientResponse<Value> {
        try await send(
            .put, path, parameters: parameters, headerFields: headerFields, responseSerializer: valueSerializer)
    }

    /// `PATCH`, parameters in the body.
    public func patch(_ path: String, parameters: Value? = nil, headerFields: HTTPFields = [:])
        async throws(ParleyError) -> ClientResponse<Value> {
        try await send(
            .patch, path, parameters: parameters, headerFields: headerFields, responseSerializer: valueSerializer)
    }

    /// `DELETE`, parameters in the query.
    public func delete(_ path: String, parameters: Value? = nil, headerFields: HTTPFields = [:])
        async throws(ParleyError) -> ClientResponse<Value> {
        try await send(
            .delete, path, parameters: parameters, headerFields: headerFields, responseSerializer: valueSerializer)
    }

    /// Decodes any body the registry handles; empty bodies for `HEAD`, 204 and 205.
    var valueSerializer: ValueResponseSerializer { ValueResponseSerializer(registry: registry) }
}
