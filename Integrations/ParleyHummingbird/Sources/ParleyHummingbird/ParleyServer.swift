public import ParleyHTTP

/// Parley's server side: the registry, request content codings and limits a
/// ``ParleyRequestContext`` uses (the core's, shared with the other framework
/// integrations), so importing `ParleyHummingbird` is enough to configure it.
public typealias ParleyServer = ParleyHTTP.ParleyServer
