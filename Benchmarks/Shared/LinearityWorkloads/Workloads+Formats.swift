import Parley
import ParleyCSV
import ParleyJSON
import ParleyMessagePack
import ParleyPropertyList
import ParleyXML
import ParleyYAML

// The text and binary formats: JSON (value tree and Codable), YAML, XML (value tree, event
// reader, document tree), property lists (XML and binary), CSV and MessagePack.

struct Item: Decodable { var id: Int; var name: String }
struct OneField: Decodable { var a: Int }

/// A value tree of an object with `count` members `key<i>`: `value<i>`.
func objectValue(_ count: Int) -> Value {
    var object = Value.Object()
    for index in 0..<count { object.append(key: "key\(index)", value: .string("value\(index)")) }
    return .object(object)
}

let jsonWorkloads: [Workload] = [
    Workload("json.object-distinct-keys", unit: "keys", count: 500) { n in
        let text = Array(("{" + joined(n, separator: ",") { "\"key\($0)\":\($0)" } + "}").utf8)
        return { keep(try JSONFormat().decode(text).resolved()) }
    },
    Workload("json.object-repeated-key", unit: "members", count: 500) { n in
        let text = Array(("{" + joined(n, separator: ",") { "\"a\":\($0)" } + "}").utf8)
        return { keep(try JSONFormat().decode(text).resolved()) }
    },
    Workload("json.array-elements", unit: "elements", count: 500) { n in
        let text = Array(("[" + joined(n, separator: ",") { "{\"id\":\($0),\"name\":\"n\($0)\"}" } + "]").utf8)
        return { keep(try JSONFormat().decode(text).resolved()) }
    },
    Workload("json.string-escapes", unit: "escapes", count: 500) { n in
        let text = Array(("\"" + String(repeating: "\\u00e9\\n", count: n) + "\"").utf8)
        return { keep(try JSONFormat().decode(text)) }
    },
    Workload("json.codable-distinct-keys", unit: "keys", count: 500) { n in
        let text = Array(("{" + joined(n, separator: ",") { "\"key\($0)\":\($0)" } + "}").utf8)
        return { keep(try JSONFormat().decode([String: Int].self, from: text)) }
    },
    Workload("json.codable-repeated-key", unit: "members", count: 500) { n in
        let text = Array(("{" + joined(n, separator: ",") { "\"a\":\($0)" } + "}").utf8)
        return { keep(try JSONFormat().decode(OneField.self, from: text)) }
    },
    Workload("json.codable-array", unit: "elements", count: 500) { n in
        let text = Array(("[" + joined(n, separator: ",") { "{\"id\":\($0),\"name\":\"n\($0)\"}" } + "]").utf8)
        return { keep(try JSONFormat().decode([Item].self, from: text)) }
    },
]

let yamlWorkloads: [Workload] = [
    Workload("yaml.mapping-distinct-keys", unit: "keys", count: 500) { n in
        let text = Array(joined(n) { "key\($0): \($0)\n" }.utf8)
        return { keep(try YAMLFormat().decode(text)) }
    },
    Workload("yaml.mapping-repeated-key", unit: "members", count: 500) { n in
        let text = Array(joined(n) { "a: \($0)\n" }.utf8)
        return { keep(try YAMLFormat(duplicateKeys: .keepAll).decode(text)) }
    },
    Workload("yaml.flow-mapping-keys", unit: "keys", count: 500) { n in
        let text = Array(("{" + joined(n, separator: ", ") { "key\($0): \($0)" } + "}\n").utf8)
        return { keep(try YAMLFormat().decode(text)) }
    },
    Workload("yaml.sequence-elements", unit: "elements", count: 500) { n in
        let text = Array(joined(n) { "- {id: \($0), name: n\($0)}\n" }.utf8)
        return { keep(try YAMLFormat().decode(text)) }
    },
    Workload("yaml.anchors-and-aliases", unit: "anchors", count: 250) { n in
        let text = Array(("anchors:\n" + joined(n) { "  - &a\($0) value\($0)\n" }
            + "aliases:\n" + joined(n) { "  - *a\($0)\n" }).utf8)
        return { keep(try YAMLFormat().decode(text)) }
    },
]

/// `<r a0="0" a1="1" …/>`: one element with `count` attributes.
private func xmlAttributes(_ count: Int) -> [UInt8] {
    Array(("<r " + joined(count, separator: " ") { "a\($0)=\"\($0)\"" } + "/>").utf8)
}

/// `<r><e a0="0" … a63="63"/>…</r>`: `count` children with 64 attributes each, the most a tag
/// may have before ParleyXML starts counting libxml2's comparisons.
private func xmlAttributeHeavyChildren(_ count: Int) -> [UInt8] {
    let tag = "<e " + joined(64, separator: " ") { "a\($0)=\"\($0)\"" } + "/>"
    return Array(("<r>" + String(repeating: tag, count: count) + "</r>").utf8)
}

/// `<r><e k="0">0</e>…</r>`: `count` children with one name.
private func xmlChildren(_ count: Int) -> [UInt8] {
    Array(("<r>" + joined(count) { "<e k=\"\($0)\">\($0)</e>" } + "</r>").utf8)
}

/// `<r><e0>0</e0>…</r>`: `count` children with distinct names.
private func xmlDistinctChildren(_ count: Int) -> [UInt8] {
    Array(("<r>" + joined(count) { "<e\($0)>\($0)</e\($0)>" } + "</r>").utf8)
}

/// `count` namespace prefixes declared on the root, each used by one child.
private func xmlNamespaces(_ count: Int) -> [UInt8] {
    Array(("<r " + joined(count, separator: " ") { "xmlns:p\($0)=\"urn:\($0)\"" } + ">"
        + joined(count) { "<p\($0):e/>" } + "</r>").utf8)
}

/// The number of events the zero-copy event reader reports for `bytes`.
private func xmlEventCount(_ bytes: [UInt8]) throws -> Int {
    var count = 0
    try XML.EventReader(bytes).forEachView { _ in count += 1 }
    return count
}

/// libxml2 2.9.14 (Debian 12) compares each attribute of a tag with every earlier one and looks
/// each prefix up through every declaration in scope: quadratic inside the C library. ParleyXML
/// counts that work before parsing and refuses a document past a fixed budget (MarkupScan), so the
/// total stays bounded; the corpus's 20,000-attribute document must still parse.
let libxml2AttributeBound = "libxml2 2.9 is quadratic per tag; ParleyXML caps the comparisons (MarkupScan)"

let xmlWorkloads: [Workload] = [
    Workload("xml.events-attributes", unit: "attributes", count: 500, knownBound: libxml2AttributeBound) { n in
        let bytes = xmlAttributes(n)
        return { keep(try xmlEventCount(bytes)) }
    },
    Workload("xml.tree-attributes", unit: "attributes", count: 500, knownBound: libxml2AttributeBound) { n in
        let bytes = xmlAttributes(n)
        return { keep(try XML.Document(parsing: bytes).root.attributes.count) }
    },
    Workload("xml.value-attributes", unit: "attributes", count: 500, knownBound: libxml2AttributeBound) { n in
        let bytes = xmlAttributes(n)
        return { keep(try XMLFormat().decode(bytes)) }
    },
    Workload("xml.value-tags-of-64-attributes", unit: "tags", count: 100) { n in
        let bytes = xmlAttributeHeavyChildren(n)
        return { keep(try XMLFormat().decode(bytes)) }
    },
    Workload("xml.events-elements", unit: "elements", count: 500) { n in
        let bytes = xmlChildren(n)
        return { keep(try xmlEventCount(bytes)) }
    },
    Workload("xml.tree-elements", unit: "elements", count: 500) { n in
        let bytes = xmlChildren(n)
        return { keep(try XML.Document(parsing: bytes).root.children.count) }
    },
    Workload("xml.value-repeated-element", unit: "elements", count: 500) { n in
        let bytes = xmlChildren(n)
        return { keep(try XMLFormat().decode(bytes)) }
    },
    Workload("xml.value-distinct-elements", unit: "elements", count: 500) { n in
        let bytes = xmlDistinctChildren(n)
        return { keep(try XMLFormat().decode(bytes)) }
    },
    Workload("xml.tree-namespaces", unit: "prefixes", count: 500, knownBound: libxml2AttributeBound) { n in
        let bytes = xmlNamespaces(n)
        return { keep(try XML.Document(parsing: bytes).root.children.count) }
    },
]

let propertyListWorkloads: [Workload] = [
    Workload("plist.xml-dict-keys", unit: "keys", count: 500) { n in
        let bytes = try! PropertyListFormat().encode(objectValue(n), as: "application/x-plist")
        return { keep(try PropertyListFormat().decode(bytes)) }
    },
    Workload("plist.xml-repeated-key", unit: "members", count: 500) { n in
        let bytes = Array(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>"
            + joined(n) { "<key>a</key><integer>\($0)</integer>" } + "</dict></plist>\n").utf8)
        return { keep(try PropertyListFormat().decode(bytes)) }
    },
    Workload("plist.binary-dict-keys", unit: "keys", count: 500) { n in
        let bytes = try! PropertyListFormat().encode(objectValue(n), as: "application/x-bplist")
        return { keep(try PropertyListFormat().decode(bytes)) }
    },
    Workload("plist.binary-array-elements", unit: "elements", count: 500) { n in
        let value = Value.array((0..<n).map { .array([.integer(Int64($0)), .string("n\($0)")]) })
        let bytes = try! PropertyListFormat().encode(value, as: "application/x-bplist")
        return { keep(try PropertyListFormat().decode(bytes)) }
    },
]

let csvWorkloads: [Workload] = [
    Workload("csv.rows", unit: "rows", count: 500) { n in
        let text = Array(("id,name,city\r\n" + joined(n) { "\($0),name \($0),\"Zürich, \($0)\"\r\n" }).utf8)
        return { keep(try CSVFormat().decode(text, as: "text/csv;header=present")) }
    },
    Workload("csv.header-distinct-names", unit: "columns", count: 500) { n in
        let header = joined(n, separator: ",") { "column\($0)" }
        let text = Array((header + "\r\n" + joined(n, separator: ",") { "\($0)" } + "\r\n").utf8)
        return { keep(try CSVFormat().decode(text, as: "text/csv;header=present")) }
    },
    Workload("csv.header-repeated-name", unit: "columns", count: 500) { n in
        let header = joined(n, separator: ",") { _ in "a" }
        let text = Array((header + "\r\n" + joined(n, separator: ",") { "\($0)" } + "\r\n").utf8)
        return { keep(try CSVFormat().decode(text, as: "text/csv;header=present")) }
    },
    Workload("csv.quoted-field", unit: "quotes", count: 500) { n in
        let text = Array(("\"" + String(repeating: "x\"\"", count: n) + "\"\r\n").utf8)
        return { keep(try CSVFormat().decode(text)) }
    },
]

let messagePackWorkloads: [Workload] = [
    Workload("msgpack.map-distinct-keys", unit: "keys", count: 500) { n in
        let bytes = try! MessagePackFormat().encode(objectValue(n))
        return { keep(try MessagePackFormat().decode(bytes)) }
    },
    Workload("msgpack.map-repeated-key", unit: "members", count: 500) { n in
        // map 32 of n members, each the key "a" (fixstr) with a positive fixint.
        var map: [UInt8] = [0xDF] + withUnsafeBytes(of: UInt32(n).bigEndian) { Array($0) }
        for index in 0..<n { map += [0xA1, UInt8(ascii: "a"), UInt8(index % 128)] }
        let bytes = map
        return { keep(try MessagePackFormat().decode(bytes)) }
    },
    Workload("msgpack.array-elements", unit: "elements", count: 500) { n in
        let value = Value.array((0..<n).map { .array([.integer(Int64($0)), .string("n\($0)")]) })
        let bytes = try! MessagePackFormat().encode(value)
        return { keep(try MessagePackFormat().decode(bytes)) }
    },
]
