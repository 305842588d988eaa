import HTTPTypes
import Parley

/// What a client connection keeps of its last exchange for the next: a keep-alive client's
/// requests mostly repeat the one before (the same `Accept`, route and types), so what was worked
/// out for one is reused while its inputs stay the same, and the storage of its fields is refilled
/// rather than made anew.
///
/// An HTTP/1.1 connection's ``RequestHeadGuard`` and ``ProxyHandler`` share one. The streams of
/// an HTTP/2 connection, each with handlers of its own, share their connection's, so that its
/// requests reuse it as an HTTP/1.1 connection's do. Not `Sendable`: it is only used on its
/// connection's event loop, which the connection's streams run on too.
final class ConnectionMemory {
    /// What the request head policy keeps of the connection's last head for the next one.
    var lastHead = RequestHeadPolicy.LastHead()
    /// The upstream `Accept` field of the connection's last request.
    var lastUpstreamAccept: UpstreamAccept?
    /// The client's `Accept` of the connection's last request, scanned.
    var lastAccept: AcceptField?
    /// The response plan of the connection's last answer.
    var lastPlan: Plan?
    /// The connection's last transcoding's plan and its summary: a keep-alive client's answers
    /// are transcoded alike (by the plan ``lastPlan`` keeps), and each essence (and the log's
    /// text of them) is a new string.
    var lastTranscoded: (plan: TranscodePlan, transcoding: ExchangeSummary.Transcoding)?
    /// The operation of the OpenAPI document the connection's last request matched.
    var lastOperation: OperationLookup?
    /// The connection's last request sent upstream.
    var lastUpstreamRequest: HTTPRequest?
    /// The end-to-end fields of the connection's last upstream answer (as passed through, or as
    /// transcoded or checked from): their storage takes the next answer's fields once that
    /// exchange has let them go.
    var lastResponseFields = HTTPFields()
    /// The connection's access-log lines, made one after the other in the same storage.
    var accessLine = LogLine()
    /// Whether the connection's answers are written by an ``HTTPTypesServerCodec`` (HTTP/1.1),
    /// which writes a passed-through head's fields from ``forwardedFieldLines``.
    var writesFieldLines = false
    /// The field lines of the head being written, from the ``ProxyHandler`` that writes it to the
    /// codec that writes it out (ahead of the head's own fields), which takes them.
    var forwardedFieldLines: ForwardedFieldLines?
    /// The client's field lines of the request head being read (HTTP/1.1), from the codec that
    /// decoded it through the head policy, which drops them when it changes the head's fields, to
    /// the ``ProxyHandler``, which takes them.
    var clientFieldLines: ClientFieldLines?
    /// The proxy fields the head policy adds after the fields of the head being read, from the
    /// head guard to the ``ProxyHandler``, which takes them.
    var appendedProxyFields: RequestHeadPolicy.ForwardedElement?

    /// An upstream `Accept` field (`nil`: none), with the client's `Accept` and the route (its path
    /// prefix) it was made for.
    struct UpstreamAccept {
        var client: String?
        var route: String?
        var field: HTTPField?
    }

    /// A response plan, with what it was made from.
    struct Plan {
        var key: ProxyHandler.PlanKey
        var plan: ResponsePlan
    }
}
