import ParleyServerSupport

/// Parley's server side: the registry, request content codings and limits the Vapor glue uses
/// (from `ParleyServerSupport`, shared with the Hummingbird integration, so both answer alike).
public typealias ParleyServer = ParleyServerSupport.ParleyServer
