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

    /// Passes `body` the event `XML.Event(view)` makes, each kind made where it is passed (the
    /// tests check both give the same events): the event is then destroyed knowing its case,
    /// not through the enum's value witness as a `XML.Event(view)` of any kind is (the same
    /// switch in a function taking a closure, shared with `XML.Event(view)`, did not save that).
    override func emit(_ view: borrowing XML.EventView) {
        do {
            switch view.kind {
            case .startElement:
                let event = XML.Event.startElement(view.name, attributes: view.attributes.copied(),
                                                   namespaces: view.namespaces.copied())
                // Reading an attribute value may have reached a limit: the error ends the parse.
                guard !state.pointee.stopped else { return }
                try body(event)
            case .endElement: try body(.endElement(view.name))
            case .text: try body(.text(view.text))
            case .cdata: try body(.cdata(view.text))
            case .comment: try body(.comment(view.text))
            case .processingInstruction: try body(.processingInstruction(target: view.target, data: view.text))
            }
        } catch {
            fail(error)
        }
    }
}
