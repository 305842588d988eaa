import FuzzSupport
import Parley
import ParleyXML

let format = XMLFormat()

/// Arbitrary bytes as application/xml: only a value or a FormatError, and our own output decodes
/// again; a document that parses into a tree reads back every node (the parsed tree's records
/// are only ever read in bounds) and equals its copy read out in full.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    fuzzDecodeAndRoundTrip(format, as: "application/xml", bytes: bytes)
    if let document = try? XML.Document(parsing: bytes) {
        let copy = XML.Document(root: heldCopy(of: document.root), prolog: document.prolog, epilog: document.epilog)
        precondition(copy == document && copy.hashValue == document.hashValue, "a parsed tree differs from its copy")
    }
    return 0
}

/// `element` rebuilt with fields held at every level, without recursion.
func heldCopy(of element: XML.Element) -> XML.Element {
    // The open elements: each one's children, how many were read, and their held copies so far.
    var stack: [(source: XML.Element, children: [XML.Node], next: Int, held: [XML.Node])] =
        [(element, element.children, 0, [])]
    while let top = stack.last {
        guard top.next < top.children.count else {
            stack.removeLast()
            let held = XML.Element(top.source.name, attributes: top.source.attributes,
                                   namespaces: top.source.namespaces, children: top.held)
            if stack.isEmpty { return held }
            stack[stack.count - 1].held.append(.element(held))
            continue
        }
        let child = top.children[top.next]
        stack[stack.count - 1].next += 1
        if case .element(let inner) = child {
            stack.append((inner, inner.children, 0, []))
        } else {
            stack[stack.count - 1].held.append(child)
        }
    }
    return element
}
