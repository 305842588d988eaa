import FoundationEssentials
import Parley
import Testing

@Suite struct ISO8601TextTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"),
        (1.5, "1970-01-01T00:00:01.500Z"),
        (253_402_300_799, "9999-12-31T23:59:59Z"),
        (253_402_300_800, "10000-01-01T00:00:00Z"),
        (253_539_713_695, "10004-05-09T10:14:55Z"),
        (-62_167_219_200, "0000-01-01T00:00:00Z"),
        (-65_322_892_800, "-0100-01-01T00:00:00Z"),
    ])
    func writesAndReadsBackEveryYear(seconds: Double, text: String) throws {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(ISO8601Text.string(from: date) == text)
        #expect(ISO8601Text.date(from: text) == date)
    }

    @Test func datesTooFarFromNineteenSeventyHaveNoText() {
        for seconds in [1e17, -1e17, 1e300, -.greatestFiniteMagnitude, .infinity, .nan] {
            #expect(ISO8601Text.string(from: Date(timeIntervalSince1970: seconds)) == nil)
        }
        let farthest = Date(timeIntervalSince1970: 9.9e16)
        #expect(ISO8601Text.string(from: farthest).flatMap(ISO8601Text.date(from:)) == farthest)
    }

    @Test func theYearTakesFourToElevenDigitsAndASign() {
        #expect(ISO8601Text.date(from: "+2024-05-06T07:08:09Z") == ISO8601Text.date(from: "2024-05-06T07:08:09Z"))
        for text in [
            "999-01-01T00:00:00Z", "123456789012-01-01T00:00:00Z", "--2024-01-01T00:00:00Z", "-01-01T00:00:00Z"
        ] {
            #expect(ISO8601Text.date(from: text) == nil, "\(text)")
        }
    }
}
