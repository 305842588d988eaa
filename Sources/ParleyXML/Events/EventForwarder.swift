import Parley

/// Copies each event into an ``XML/Event`` and passes it to a closure: the handler of
/// ``XML/EventReader/forEach(_:)``, which receives the views directly (as the tree and value
/// builders do) rather than through a sink closure that forwards them to another closure.
final class EventForwarder: SAXHandler {
    private let body: (XML.Event) throws -> Void

    /// Creates a handler whose events go to `body`, which must outlive the parse.
    init(limits: DecodingLimits, body: @escaping (XML.Event) throws -> Void) {
        self.body = body
        super.init(limits: limits)
    }

    override func emit(_ view: borrowing XML.EventView) {
        let event = XML.Event(view)
        // Reading an attribute value may have reached a limit: the error ends the parse.
        guard !state.pointee.stopped else { return }
        do { try body(event) } catch { fail(error) }
    }
}
