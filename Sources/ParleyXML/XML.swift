/// The namespace of ParleyXML's document and event types.
///
/// The nested names (``XML/Document``, ``XML/Element``, ``XML/Node``, ``XML/EventReader``)
/// never clash with FoundationXML's `XMLDocument`, `XMLElement` and `XMLNode` in code that
/// imports both modules.
public enum XML {}
