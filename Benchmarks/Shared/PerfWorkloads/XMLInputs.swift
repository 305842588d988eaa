public import FoundationXML
public import ParleyXML

// The XML document and the string-event read: XMLBenchmarks times them, PerfGate counts them.

/// A deterministic catalogue document of at least `bytes` bytes: attributes, short and long
/// text, entity and character references, nesting three levels deep.
public func catalogue(bytes target: Int) -> [UInt8] {
    var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<catalog xmlns=\"urn:example:catalog\">\n"
    var index = 0
    while text.utf8.count < target {
        text += """
          <book id="bk\(index)" lang="\(index % 3 == 0 ? "en" : "fr")" available="\(index % 2 == 0)">
            <author>Author \(index % 97), Name &amp; Co</author>
            <title>Title number \(index) of the catalogue</title>
            <price currency="EUR">\(index % 50).\(index % 100)</price>
            <description>A deterministic description for book \(index): it runs for a line or two so that \
        character data dominates as in real feeds &#x2014; with an entity &lt;here&gt;.</description>
          </book>

        """
        index += 1
    }
    text += "</catalog>\n"
    return Array(text.utf8)
}

/// Reads `bytes` with the string event API most callers use: counts elements and text bytes.
public func countStringEvents(_ bytes: [UInt8]) throws -> Int {
    let counts = try stringEventCounts(bytes)
    return counts.elements + counts.textBytes
}

/// The elements and text bytes the string events of `bytes` carry.
public func stringEventCounts(_ bytes: [UInt8]) throws -> (elements: Int, textBytes: Int) {
    var elements = 0
    var textBytes = 0
    try XML.EventReader(bytes).forEach { event in
        switch event {
        case .startElement: elements += 1
        case .text(let text): textBytes += text.utf8.count
        default: break
        }
    }
    return (elements, textBytes)
}

/// Visits every element of a ParleyXML tree without recursion, counting elements and attributes.
public func walk(_ document: XML.Document) -> Int {
    var count = 0
    var stack: [XML.Element] = [document.root]
    while let element = stack.popLast() {
        count += 1 + element.attributes.count
        for child in element.children { if case .element(let e) = child { stack.append(e) } }
    }
    return count
}

/// ``walk(_:)-(XML.Document)`` over a FoundationXML tree: the same count, so the comparison is like for like.
public func walk(_ document: FoundationXML.XMLDocument) -> Int {
    var count = 0
    var stack: [FoundationXML.XMLNode] = document.rootElement().map { [$0] } ?? []
    while let node = stack.popLast() {
        if let element = node as? FoundationXML.XMLElement {
            count += 1 + (element.attributes?.count ?? 0)
            stack.append(contentsOf: element.children ?? [])
        }
    }
    return count
}
