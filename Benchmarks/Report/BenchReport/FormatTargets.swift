import BenchmarkInputs
import CBaselineSimdjson
import CBaselineXML
import CBaselineYAML
import Foundation
import FoundationXML
import Parley
import ParleyJSON
import ParleyXML
import ParleyYAML
import PerfWorkloads

// The value formats' targets, each pair timed in this process on the suites' own documents.

/// JSON: the full read (decode + visit every value) against JSONSerialization + the same walk and
/// simdjson's DOM parse + the same walk; Codable against JSONDecoder; on the three documents.
func jsonTargets(runs: (Int) -> Int, clock: Clock) throws -> [TargetRow] {
    let json = JSONFormat()
    var rows: [TargetRow] = []
    let documents: [(String, [UInt8])] = [
        ("API", makeAPIDocument(size: 1 << 20, seed: 1)),
        ("GeoJSON", makeGeoJSON(size: 2 << 20, seed: 3)),
        ("API", makeAPIDocument(size: 20 << 20, seed: 2)),
    ]
    for (kind, bytes) in documents {
        let name = "\(megabytes(bytes.count)) \(kind)"
        let data = Data(bytes)
        // The three walks must see the same document, or the comparison is not like for like.
        let expected = walk(try json.decode(bytes))
        let simdjsonCount = bytes.withUnsafeBufferPointer { simdjson_parse_and_walk($0.baseAddress, $0.count) }
        let foundationCount = walkFoundation(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
        guard simdjsonCount == expected, foundationCount == expected else {
            throw ReportError("\(name): walks differ: Parley \(expected), simdjson \(simdjsonCount), "
                              + "JSONSerialization \(foundationCount)")
        }
        let n = runs(bytes.count)
        let full = try timeInterleaved(runs: n, clock: clock, [
            { consume(walk(try json.decode(bytes))) },
            { consume(bytes.withUnsafeBufferPointer { simdjson_parse_and_walk($0.baseAddress, $0.count) }) },
            { consume(walkFoundation(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))) },
        ])
        rows.append(speedRow("JSON full read, \(name): decode + walk vs JSONSerialization + walk", parley: full[0],
                             anchor: full[2], anchorName: "JSONSerialization", goal: .speedAtLeast(15)))
        rows.append(speedRow("JSON full read, \(name): decode + walk vs simdjson DOM + walk", parley: full[0],
                             anchor: full[1], anchorName: "simdjson", goal: .speedAtLeast(1.0 / 3)))
        if kind == "API" && bytes.count < 2 << 20 {
            // How much of the full read is parsing: Parley's decode validates into the tape and
            // defers every object, so it reads no value; simdjson's parse builds its whole DOM.
            let parse = try timeInterleaved(runs: n, clock: clock, [
                { consume(try json.decode(bytes)) },
                { consume(bytes.withUnsafeBufferPointer { simdjson_parse_only($0.baseAddress, $0.count) }) },
            ])
            rows.append(speedRow("(context) JSON decode alone, \(name): tape, objects deferred, nothing read, "
                                 + "vs simdjson DOM parse alone",
                                 parley: parse[0], anchor: parse[1], anchorName: "simdjson parse", goal: .none))
        }
        let codable: [Timing]
        if kind == "GeoJSON" {
            codable = try timeInterleaved(runs: n, clock: clock, [
                { consume(try json.decode(FeatureCollection.self, from: bytes)) },
                { consume(try JSONDecoder().decode(FeatureCollection.self, from: data)) },
            ])
        } else {
            codable = try timeInterleaved(runs: n, clock: clock, [
                { consume(try json.decode([APIRecord].self, from: bytes)) },
                { consume(try JSONDecoder().decode([APIRecord].self, from: data)) },
            ])
        }
        rows.append(speedRow("JSON Codable, \(name) vs JSONDecoder", parley: codable[0], anchor: codable[1],
                             anchorName: "JSONDecoder", goal: .speedAtLeast(3)))
    }
    return rows
}

/// XML on the 1 MB catalogue: string events against libxml2's SAX2 making the same strings in C,
/// the value tree against the raw SAX2 loop, the document tree + walk against XMLDocument.
func xmlTargets(runs: (Int) -> Int, clock: Clock) throws -> [TargetRow] {
    let bytes = catalogue(bytes: 1 << 20)
    func sax2(_ parse: (UnsafePointer<CChar>?, Int) -> baseline_xml_counts) -> baseline_xml_counts {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { parse($0.baseAddress, $0.count) }
        }
    }
    // Like for like: the C strings baseline sees the elements and text the string events do.
    let (elements, textBytes) = try stringEventCounts(bytes)
    let strings = sax2(baseline_xml_sax2_strings)
    guard strings.wellFormed != 0, strings.elements == elements, strings.textBytes == textBytes else {
        throw ReportError("XML: the SAX2 strings baseline saw \(strings.elements) elements and "
                          + "\(strings.textBytes) text bytes, the string events \(elements) and \(textBytes)")
    }

    let n = runs(bytes.count)
    // XMLDocument leaks (about 11 MB a parse + walk of this document here), so every call timed after it
    // in one process would run on fresh pages and pay their faults: it is timed in a child.
    let foundation = try timeInChild("xml-foundation-document", runs: n, clock: clock)
    var t = try timeInterleaved(runs: n, clock: clock, [
        { consume(try countStringEvents(bytes)) },
        { consume(sax2(baseline_xml_sax2_strings)) },
        { consume(try XMLFormat().decode(bytes)) },
        { consume(sax2(baseline_xml_sax2_count)) },
        { consume(walk(try XML.Document(parsing: bytes))) },
        {
            var count = 0
            try XML.EventReader(bytes).forEachView { event in
                switch event.kind {
                case .startElement: count += 1
                case .text: count += event.utf8Count
                default: break
                }
            }
            consume(count)
        },
    ])
    t.insert(foundation, at: 5)
    // The two trees agree (checked after the timing: XMLDocument's leak stays out of it).
    let treeCount = walk(try XML.Document(parsing: bytes))
    let foundationCount = walk(try FoundationXML.XMLDocument(data: Data(bytes)))
    guard treeCount == foundationCount else {
        throw ReportError("XML: tree walks differ: \(treeCount) against \(foundationCount)")
    }
    return [
        speedRow("XML string events, \(megabytes(bytes.count)) vs libxml2 SAX2 making the same strings (C)",
                 parley: t[0], anchor: t[1], anchorName: "SAX2 + strings", goal: .speedAtLeast(0.6)),
        speedRow("XML decode to the value tree, \(megabytes(bytes.count)) vs raw SAX2 (C, no copies)",
                 parley: t[2], anchor: t[3], anchorName: "raw SAX2", goal: .speedAtLeast(0.4)),
        speedRow("XML tree + walk, \(megabytes(bytes.count)) vs XMLDocument + walk", parley: t[4], anchor: t[5],
                 anchorName: "XMLDocument", goal: .speedAtLeast(3)),
        speedRow("(context) XML view events, \(megabytes(bytes.count)) vs raw SAX2 (C, no copies)",
                 parley: t[6], anchor: t[3], anchorName: "raw SAX2", goal: .none),
    ]
}

/// YAML on the 3 MB records document: decode to the value tree against libyaml's raw event loop.
func yamlTargets(runs: (Int) -> Int, clock: Clock) throws -> [TargetRow] {
    let bytes = makeYAMLRecords(targetBytes: 3 << 20)
    let t = try timeInterleaved(runs: runs(bytes.count), clock: clock, [
        { consume(try YAMLFormat().decode(bytes)) },
        {
            let events = bytes.withUnsafeBufferPointer { baseline_yaml_event_loop($0.baseAddress, $0.count, nil) }
            guard events > 0 else { throw ReportError("libyaml rejected the YAML document") }
        },
    ])
    return [speedRow("YAML decode to the value tree, \(megabytes(bytes.count)) "
                     + "vs libyaml's raw event loop (C, reads every scalar)", parley: t[0], anchor: t[1],
                     anchorName: "libyaml events", goal: .speedAtLeast(0.7))]
}

struct ReportError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A size in MiB, as the suites name their documents: `1.0 MB`, `20.0 MB`.
func megabytes(_ count: Int) -> String { String(format: "%.1f MB", Double(count) / 1_048_576) }

/// The calls ``timeInChild(_:runs:clock:)`` can time, by name, each on its own input.
func childTimedCalls() throws -> [String: () throws -> Void] {
    let data = Data(catalogue(bytes: 1 << 20))
    return ["xml-foundation-document": { consume(walk(try FoundationXML.XMLDocument(data: data))) }]
}
