import FoundationEssentials
import Parley
import ParleyPropertyList
import ParleyTestKit
import Testing

@Suite struct PropertyListFormatTests {
    let plist = PropertyListFormat()

    static let samples: [Value] = [
        [
            "name": "Ada", "age": 36, "ratio": 0.25, "active": true,
            "when": .date(Date(timeIntervalSinceReferenceDate: 1_000)),
            "blob": .bytes([0, 1, 2, 255])
        ],
        [1, 2, 3, ["nested": ["deeper": [true, false]]]],
        ["unicode": "héllo wörld ✓ 𝄞 <&>", "empty": "", "emptyList": [], "emptyObject": [:]],
        ["big": .number("18446744073709551615"), "small": .integer(Int64.min), "uid": .tagged("uid", .integer(9))]
    ]

    @Test func conformsToTheKit() {
        FormatConformance.expectConformance(of: plist, options: .init(samples: Self.samples))
    }

    @Test(arguments: ["application/x-plist", "application/x-bplist"] as [MediaType])
    func integerBoundariesSurvive(type: MediaType) throws {
        let value: Value = [
            .integer(0), .integer(255), .integer(256), .integer(65_536), .integer(Int64(UInt32.max) + 1),
            .integer(Int64.max), .integer(-1), .integer(Int64.min), .number("9223372036854775808"),
            .number("18446744073709551615")
        ]
        #expect(try plist.decode(try plist.encode(value, as: type)) == value)
    }

    @Test func detectsTheFormByContentNotLabel() throws {
        let binary = try plist.encode(["a": 1], as: "application/x-bplist")
        #expect(try plist.decode(binary, as: "application/x-plist") == ["a": 1])
        #expect(Array(binary.prefix(8)) == Array("bplist00".utf8))
    }

    @Test func nullAndForeignTagsHaveNoPropertyListForm() {
        for type: MediaType in ["application/x-plist", "application/x-bplist"] {
            #expect { try plist.encode([.null], as: type) } throws: { ($0 as? FormatError)?.code == .unsupportedValue }
            #expect { try plist.encode(.tagged("!x", 1), as: type) } throws: {
                ($0 as? FormatError)?.code == .unsupportedValue
            }
        }
    }

    /// Found by FuzzPropertyList: a binary date in the year 10004 was written as XML the reader refused.
    @Test func datesBeyondTheYear9999RoundTripAndHugeOnesNeedTheBinaryForm() throws {
        let far: Value = ["d": .date(Date(timeIntervalSince1970: 253_539_713_695))]
        #expect(try plist.decode(try plist.encode(far, as: "application/x-plist")) == far)
        let huge: Value = ["d": .date(Date(timeIntervalSinceReferenceDate: 1e300))]
        #expect { try plist.encode(huge, as: "application/x-plist") } throws: {
            ($0 as? FormatError)?.code == .unsupportedValue
        }
        #expect(try plist.decode(try plist.encode(huge, as: "application/x-bplist")) == huge)
    }

    @Test func stringsXMLCannotCarryNeedTheBinaryForm() throws {
        for text in ["bell\u{7}", "\u{FFFE}", "non\u{FFFF}character"] {
            let value: Value = ["k": .string(text)]
            #expect { try plist.encode(value, as: "application/x-plist") } throws: {
                ($0 as? FormatError)?.code == .unsupportedValue
            }
            #expect(try plist.decode(try plist.encode(value, as: "application/x-bplist")) == value)
        }
        let carriageReturn: Value = ["k": "a\r\nb"]
        #expect(try plist.decode(try plist.encode(carriageReturn, as: "application/x-plist")) == carriageReturn)
    }

    @Test func xmlEntitiesBeyondThePredefinedOnesAreNeverExpanded() throws {
        let doc = """
        <?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "aaaa"><!ENTITY x SYSTEM "file:///etc/hostname">]>
        <plist><string>&a;&x;</string></plist>
        """
        #expect { try plist.decode(Array(doc.utf8)) } throws: { ($0 as? FormatError)?.code == .forbidden }
        let predefined = "<plist><string>&lt;&amp;&#x1F600;&#65;</string></plist>"
        #expect(try plist.decode(Array(predefined.utf8)) == "<&😀A")
    }

    @Test func xmlTextIsRewrittenOnlyWhereXMLSaysSo() throws {
        let doc = """
        <plist><dict>
        <key>a<!-- note -->b</key><string>x<![CDATA[<&>]]>y\r\nz\rw</string>
        <key>n</key><integer> -0x1F </integer>
        <key>r</key><real>\n 2.5e3 </real>
        <key>d</key><date> 2001-01-01T00:01:00Z </date>
        <key>bytes</key><data>
          AAEC
          /w==
        </data>
        <key>t</key><true> </true>
        <key>e</key><string/>
        </dict></plist>
        """
        let expected: Value = [
            "ab": "x<&>y\nz\nw", "n": -31, "r": 2500.0, "d": .date(Date(timeIntervalSinceReferenceDate: 60)),
            "bytes": .bytes([0, 1, 2, 255]), "t": true, "e": "",
        ]
        #expect(try plist.decode(Array(doc.utf8)) == expected)
        for bad in [
            "<plist><true>x</true></plist>", "<plist><data>AA=A</data></plist>", "<plist><real>1x</real></plist>",
            "<plist><string>a</strin></plist>", "<plist><string>a\u{1}</string></plist>"
        ] {
            #expect { try plist.decode(Array(bad.utf8)) } throws: { ($0 as? FormatError)?.code == .malformed }
        }
    }

    @Test func xmlErrorsCarryLineAndColumn() throws {
        do {
            _ = try plist.decode(Array("<plist>\n<dict>\n  <key>a</key>\n  <integer>x</integer>\n</dict></plist>".utf8))
            Issue.record("expected an error")
        } catch let error as FormatError {
            #expect(error.code == .malformed)
            #expect(error.location?.line == 4)
            #expect(error.location?.column == 3)
        }
    }

    @Test func depthAndNodeLimitsHold() throws {
        let deep = String(repeating: "<array>", count: 600) + String(repeating: "</array>", count: 600)
        #expect { try plist.decode(Array(deep.utf8)) } throws: { ($0 as? FormatError)?.code == .limitExceeded }
        var nested: Value = 1
        for _ in 0..<30 { nested = [nested] }
        let binary = try plist.encode(nested, as: "application/x-bplist")
        #expect { try plist.decode(binary, limits: DecodingLimits(maxDepth: 10)) } throws: {
            ($0 as? FormatError)?.code == .limitExceeded
        }
        #expect { try plist.decode(binary, limits: DecodingLimits(maxNodes: 5)) } throws: {
            ($0 as? FormatError)?.code == .limitExceeded
        }
    }

    @Test func readsTheAliases() {
        let registry = Registry(formats: [plist])
        #expect(registry.decoder(forContentType: "text/x-plist")?.format.name == "plist")
        #expect(registry.decoder(forContentType: "application/x-bplist")?.format.name == "plist")
        #expect(registry.encoder(forAccept: "application/x-bplist")?.mediaType == "application/x-bplist")
    }
}
