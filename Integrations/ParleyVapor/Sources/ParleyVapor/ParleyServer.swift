public import ParleyHTTP

/// Parley's server side: the registry, request content codings and limits the Vapor glue uses
/// (the core's, shared with the Hummingbird integration, so both answer alike).
public typealias ParleyServer = ParleyHTTP.ParleyServer
