import Parley
import ParleyTestKit
import ParleyYAML
import Testing

@Suite struct YAMLFormatConformanceTests {
    @Test func passesTheConformanceKit() {
        FormatConformance.expectConformance(
            of: YAMLFormat(),
            options: FormatConformance.Options(
                samples: FormatConformance.standardSamples + [
                    ["bytes": .bytes([0, 1, 2, 254, 255]), "text": "true", "quoted": "a: b #c", "spaces": " x "],
                    [
                        "huge": .number("12345678901234567890123"), "tiny": .number("1e400"),
                        "tagged": .tagged("!point", ["x": 1])
                    ]
                ],
                malformedInputs: [Array("a: [1, 2".utf8), Array("key: *missing".utf8), Array("a: 1\na: 2".utf8)]))
    }
}
