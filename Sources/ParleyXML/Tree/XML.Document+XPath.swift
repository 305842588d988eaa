internal import CParleyXML
import Parley

extension XML.Document {
    /// Evaluates an XPath 1.0 expression with libxml2 against this document.
    ///
    /// ```swift
    /// let ids = try document.xpath("//a:entry/a:id", namespaces: ["a": "http://www.w3.org/2005/Atom"]).strings
    /// ```
    ///
    /// - Parameters:
    ///   - expression: The expression. Elements in a default namespace need a prefix bound in
    ///     `namespaces`, as XPath 1.0 requires.
    ///   - namespaces: Prefixes to use in the expression, mapped to namespace URIs.
    /// - Returns: The node-set (nodes are copies of this document's nodes) or scalar result.
    /// - Throws: `FormatError` `.malformed` for an expression libxml2 cannot compile or
    ///   evaluate; `.unsupportedValue` when the document cannot be given to libxml2.
    /// - Complexity: Builds a libxml2 tree of the document (O(*n*)) for each call.
    public func xpath(_ expression: String, namespaces: [String: String] = [:]) throws -> XML.XPathResult {
        let tree = try XPathTree(document: self)
        return try tree.evaluate(expression, namespaces: namespaces)
    }
}

/// The one owner of a libxml2 tree built from an ``XML/Document``, for XPath. Every libxml2
/// node carries, in `_private`, the index of the Swift node it came from.
final class XPathTree {
    private let document: xmlDocPtr
    /// The Swift nodes, indexed by the number stored in the libxml2 node's `_private` (minus one).
    private var nodes: [XML.XPathNode] = []

    init(document source: XML.Document) throws(FormatError) {
        xmlInitParser()
        guard let document = xmlNewDoc("1.0") else {
            throw FormatError(.unsupportedValue, format: "xml", "libxml2 could not create a document")
        }
        self.document = document
        for node in source.prolog { try add(node, to: nil) }
        try add(.element(source.root), to: nil)
        for node in source.epilog { try add(node, to: nil) }
    }

    deinit {
        xmlFreeDoc(document)
    }

    private func tag(_ node: XML.XPathNode) -> UnsafeMutableRawPointer? {
        nodes.append(node)
        return UnsafeMutableRawPointer(bitPattern: nodes.count)
    }

    /// Adds `node` under `parent` (the document when `nil`), depth first with an explicit stack.
    private func add(_ top: XML.Node, to topParent: xmlNodePtr?) throws(FormatError) {
        var work: [(XML.Node, xmlNodePtr?)] = [(top, topParent)]
        while let (node, parent) = work.popLast() {
            let created: xmlNodePtr?
            switch node {
            case .element(let element):
                created = try makeElement(element, parent: parent)
                if let created {
                    for child in element.children.reversed() { work.append((child, created)) }
                }
            case .text(let text):
                created = xmlNewDocTextLen(document, text, Int32(text.utf8.count))
            case .cdata(let text):
                created = xmlNewCDataBlock(document, text, Int32(text.utf8.count))
            case .comment(let text):
                created = xmlNewDocComment(document, text)
            case .processingInstruction(let target, let data):
                created = xmlNewDocPI(document, target, data)
            }
            guard let created else {
                throw FormatError(.unsupportedValue, format: "xml", "libxml2 could not create a node")
            }
            if case .element = node, parent == nil {
                // The root element: already attached by xmlDocSetRootElement.
                created.pointee._private = tag(.node(node))
                continue
            }
            let container = parent ?? UnsafeMutableRawPointer(document).assumingMemoryBound(to: xmlNode.self)
            // xmlAddChild merges adjacent text nodes (freeing the new one): tag only a node that stays.
            if let added = xmlAddChild(container, created), added == created {
                added.pointee._private = tag(.node(node))
            }
        }
    }

    private func makeElement(_ element: XML.Element, parent: xmlNodePtr?) throws(FormatError) -> xmlNodePtr? {
        guard let node = xmlNewDocNode(document, nil, element.name.localName, nil) else { return nil }
        if let parent {
            xmlAddChild(parent, node)
        } else {
            xmlDocSetRootElement(document, node)
        }
        for namespace in element.namespaces {
            _ = xmlNewNs(node, namespace.uri, namespace.prefix)
        }
        xmlSetNs(node, namespace(for: element.name, on: node))
        for attribute in element.attributes {
            let ns = attribute.name.prefix == nil ? nil : namespace(for: attribute.name, on: node)
            if let property = xmlNewNsProp(node, ns, attribute.name.localName, attribute.value) {
                property.pointee._private = tag(.attribute(attribute))
            }
        }
        // Attached only to resolve prefixes declared on ancestors; the caller attaches it for good.
        if parent != nil { xmlUnlinkNode(node) }
        return node
    }

    /// The libxml2 namespace a name is bound to: found by prefix in scope, or declared here
    /// when the tree was built in code without a declaration.
    private func namespace(for name: XML.Name, on node: xmlNodePtr) -> xmlNsPtr? {
        guard name.prefix != nil || name.namespaceURI != nil else { return nil }
        if let found = xmlSearchNs(document, node, name.prefix), let href = found.pointee.href,
           name.namespaceURI == nil || String(cString: href) == name.namespaceURI {
            return found
        }
        guard let uri = name.namespaceURI else { return nil }
        return xmlNewNs(node, uri, name.prefix)
    }

    func evaluate(_ expression: String, namespaces: [String: String]) throws(FormatError) -> XML.XPathResult {
        guard let context = xmlXPathNewContext(document) else {
            throw FormatError(.malformed, format: "xml", "libxml2 could not create an XPath context")
        }
        defer { xmlXPathFreeContext(context) }
        context.pointee.error = ignoreXPathError
        for (prefix, uri) in namespaces.sorted(by: { $0.key < $1.key }) {
            xmlXPathRegisterNs(context, prefix, uri)
        }
        guard let object = xmlXPathEvalExpression(expression, context) else {
            throw FormatError(.malformed, format: "xml", "invalid XPath expression \"\(expression)\"")
        }
        defer { xmlXPathFreeObject(object) }
        switch object.pointee.type {
        case XPATH_NODESET:
            var result: [XML.XPathNode] = []
            if let set = object.pointee.nodesetval, set.pointee.nodeNr > 0, let table = set.pointee.nodeTab {
                for i in 0..<Int(set.pointee.nodeNr) {
                    guard let node = table[i] else { continue }
                    if node.pointee.type == XML_NAMESPACE_DECL {
                        let ns = UnsafeMutableRawPointer(node).assumingMemoryBound(to: xmlNs.self).pointee
                        result.append(.namespace(XML.Namespace(prefix: ns.prefix.map { String(cString: $0) },
                                                               uri: ns.href.map { String(cString: $0) } ?? "")))
                    } else if let id = node.pointee._private.map({ Int(bitPattern: $0) }), id > 0, id <= nodes.count {
                        result.append(nodes[id - 1])
                    }
                }
            }
            return .nodes(result)
        case XPATH_BOOLEAN:
            return .boolean(object.pointee.boolval != 0)
        case XPATH_NUMBER:
            return .number(object.pointee.floatval)
        case XPATH_STRING:
            return .string(object.pointee.stringval.map { String(cString: $0) } ?? "")
        default:
            throw FormatError(.malformed, format: "xml", "unsupported XPath result type")
        }
    }
}

/// XPath errors are reported by the NULL result; keep libxml2 from printing them.
private func ignoreXPathError(_ userData: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {}
