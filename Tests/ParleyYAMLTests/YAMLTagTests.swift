import Foundation
import Parley
import ParleyTestKit
import ParleyYAML
import Testing

@Suite struct YAMLTagTests {
    func decode(_ text: String, _ format: YAMLFormat = YAMLFormat()) throws -> Value {
        try format.decode(Array(text.utf8))
    }

    @Test func coreTagsAreConstructed() throws {
        let value = try decode("""
            s: !!str 12
            i: !!int "0x1F"
            f: !!float 3
            b: !!bool "true"
            n: !!null ""
            bin: !!binary |
              AAEC/w==
            t: !!timestamp 2001-12-14t21:59:43.10-05:00
            d: !!timestamp 2002-12-14
            m: !!map {a: 1}
            q: !!seq [1]
            e: ! 12
            """)
        #expect(value["s"] == "12")
        #expect(value["i"] == 31)
        #expect(value["f"] == .float(3))
        #expect(value["b"] == true)
        #expect(value["n"] == .null)
        #expect(value["bin"] == .bytes([0, 1, 2, 255]))
        #expect(abs((value["t"]?.dateValue?.timeIntervalSince1970 ?? 0) - 1_008_385_183.1) < 1e-6)
        #expect(value["d"] == .date(Date(timeIntervalSince1970: 1_039_824_000)))
        #expect(value["m"] == ["a": 1])
        #expect(value["q"] == [1])
        #expect(value["e"] == "12")
    }

    @Test(arguments: ["!!int abc", "!!float x", "!!bool yes", "!!null 0", "!!binary '***'", "!!timestamp 2001-13-01",
                      "!!str [a]", "!!seq {a: 1}", "!!map [a]", "!!int {a: 1}"])
    func aCoreTagOnTheWrongContentIsMalformed(_ text: String) {
        let error = #expect(throws: FormatError.self) { try decode(text) }
        #expect(error?.code == .malformed)
        #expect(error?.location?.line == 1)
    }

    @Test func unknownTagsAreKeptAsTaggedData() throws {
        let value = try decode("a: !point {x: 1}\nb: !!python/object:os.system [rm]\nc: !local 12\n")
        #expect(value["a"] == .tagged("!point", ["x": 1]))
        #expect(value["b"] == .tagged("tag:yaml.org,2002:python/object:os.system", ["rm"]))
        #expect(value["c"] == .tagged("!local", "12"))
    }

    @Test(arguments: ["a: !point {x: 1}", "- !!python/object:os.system [rm]", "!local 12", "!x a: 1"])
    func unknownTagsAreForbiddenWhenRejected(_ text: String) {
        let error = #expect(throws: FormatError.self) { try decode(text, YAMLFormat(unknownTags: .reject)) }
        #expect(error?.code == .forbidden)
    }

    @Test func vcrpyPythonObjectCassetteIsDataOrRefused() throws {
        guard let directory = Corpora.directory("recorded") else {
            print(Corpora.missingMessage("recorded"))
            return
        }
        let input = try Data(
            contentsOf: directory.appendingPathComponent("vcrpy/vcrpy/old_cassette.legacy-format.yaml"))
        let error = #expect(throws: FormatError.self) { try YAMLFormat(unknownTags: .reject).decode(input) }
        #expect(error?.code == .forbidden)
        let kept = try YAMLFormat().decode(input)
        let request = try #require(kept[0]?["request"])
        guard case .tagged(let tag, let fields) = request else {
            Issue.record("request is \(request.kindName), not tagged")
            return
        }
        #expect(tag == "tag:yaml.org,2002:python/object:vcr.request.Request")
        #expect(fields["host"] == "httpbin.org")
        #expect(kept[0]?["response"]?["status"]?["code"] == 200)
    }
}
