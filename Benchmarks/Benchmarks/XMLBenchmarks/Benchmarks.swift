import Benchmark
import CBaselineXML
import Foundation
import FoundationXML
import Parley
import ParleyXML
import PerfWorkloads

// Side by side on the same generated documents (1 MB and 20 MB), in one run:
// - ParleyXML's event reader, zero-copy views (eventsView) and string events (events), vs libxml2's
//   own SAX2 parser called from C (CBaselineXML) and Foundation's XMLParser, all counting
//   elements and text bytes: libxml2SAX2 copies nothing (the raw speed), libxml2SAX2Strings
//   makes the strings the string events hold (malloc'ed copies), like for like with events;
// - ParleyXML's document tree vs FoundationXML's XMLDocument (parse, then visit every element
//   and read its attributes);
// - XMLFormat's decode to the value tree.
// Throughput: divide the document size by the median wall-clock time.

final class CountingDelegate: NSObject, XMLParserDelegate {
    var elements = 0
    var textBytes = 0
    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        elements += 1
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) {
        textBytes += string.utf8.count
    }
}

let benchmarks: @Sendable () -> Void = {
    let sizes: [(String, Int)] = [("1MB", 1 << 20), ("20MB", 20 << 20)]
    for (label, size) in sizes {
        let bytes = catalogue(bytes: size)
        let data = Data(bytes)
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, .throughput],
            maxDuration: .seconds(size > 2 << 20 ? 8 : 3),
            maxIterations: size > 2 << 20 ? 8 : 60)

        Benchmark("XML.events-\(label)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try countStringEvents(bytes))
            }
        }

        Benchmark("XML.eventsView-\(label)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                var elements = 0
                var textBytes = 0
                try XML.EventReader(bytes).forEachView { event in
                    switch event.kind {
                    case .startElement: elements += 1
                    case .text: textBytes += event.utf8Count
                    default: break
                    }
                }
                blackHole(elements + textBytes)
            }
        }

        Benchmark("XML.libxml2SAX2-\(label)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                let counts = bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { baseline_xml_sax2_count($0.baseAddress, $0.count) }
                }
                blackHole(counts.elements + counts.textBytes)
            }
        }

        // The like-for-like baseline of XML.events: the same parse building the same strings.
        Benchmark("XML.libxml2SAX2Strings-\(label)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                let counts = bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { baseline_xml_sax2_strings($0.baseAddress, $0.count) }
                }
                blackHole(counts.elements + counts.textBytes)
            }
        }

        Benchmark("XML.foundationXMLParser-\(label)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                let parser = XMLParser(data: data)
                let delegate = CountingDelegate()
                parser.delegate = delegate
                let parsed = parser.parse()
                if !parsed || delegate.elements == 0 {
                    print("XMLParser(data:) failed on \(label): parse() = \(parsed), \(delegate.elements) elements, "
                          + "error \(String(describing: parser.parserError))")
                }
                blackHole(delegate.elements + delegate.textBytes)
            }
        }

        Benchmark("XML.tree-\(label)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                let document = try XML.Document(parsing: bytes)
                blackHole(walk(document))
            }
        }

        Benchmark("XML.foundationXMLDocument-\(label)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                let document = try FoundationXML.XMLDocument(data: data)
                blackHole(walk(document))
            }
        }

        Benchmark("XML.decodeValue-\(label)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try XMLFormat().decode(bytes))
            }
        }
    }
}
