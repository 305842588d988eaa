import Parley

/// Passes each event view to a closure: the handler of ``XML/EventReader/forEachView(_:)``. An
/// error the closure throws stops the parse.
final class ViewForwarder: SAXHandler {
    private let body: (borrowing XML.EventView) throws -> Void

    /// Creates a handler whose events go to `body`, which must outlive the parse.
    init(limits: DecodingLimits, body: @escaping (borrowing XML.EventView) throws -> Void) {
        self.body = body
        super.init(limits: limits)
    }

    override func emit(_ view: borrowing XML.EventView) {
        do { try body(view) } catch { fail(error) }
    }
}
