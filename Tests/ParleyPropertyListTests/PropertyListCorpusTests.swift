import Foundation
import Parley
import ParleyJSON
import ParleyPropertyList
import ParleyTestKit
import Testing

/// The shared property-list corpus, one test argument per manifest entry, checked with the
/// manifest's vocabulary (decode, reject, reject-or-limit, must-not-resolve, impl-defined).
@Suite struct PropertyListCorpusTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var files: [String]
        var expected: String?
        var expect: String
        var testDescription: String { "\(name) (\(expect))" }
    }

    static let directory = Corpora.directory("plist")

    static let cases: [Case] = {
        guard let directory,
            let data = FileManager.default.contents(atPath: directory.appendingPathComponent("manifest.json").path),
            let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]]
        else { return [] }
        return manifest.keys.sorted().map { name in
            let entry = manifest[name]!
            return Case(name: name, files: entry["files"] as? [String] ?? [], expected: entry["expected"] as? String,
                        expect: entry["expect"] as? String ?? "")
        }
    }()

    func decode(_ file: String) throws -> Value {
        let bytes = try [UInt8](Data(contentsOf: Self.directory!.appendingPathComponent(file)))
        return try PropertyListFormat().decode(bytes)
    }

    /// Compares exactly, treating NaN as equal to itself and keeping the sign of zero.
    static func canonical(_ value: Value, millisecondDates: Bool = false) -> Value {
        switch value {
        case .float(let d): return .string(d.isNaN ? "real:nan" : "real:\(d.bitPattern)")
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            return .string("date:\(millisecondDates ? (seconds * 1000).rounded() : seconds)")
        case .array(let elements): return .array(elements.map { canonical($0, millisecondDates: millisecondDates) })
        case .object(let object):
            return .object(Value.Object(object.members.map {
                .init(key: $0.key, value: canonical($0.value, millisecondDates: millisecondDates))
            }))
        default: return value
        }
    }

    @Test func corpusIsPresentOrSkippedVisibly() {
        if Self.directory == nil { print(Corpora.missingMessage("plist")) } else { #expect(Self.cases.count == 91) }
    }

    @Test(arguments: cases)
    func followsTheManifest(_ entry: Case) throws {
        for file in entry.files {
            switch entry.expect {
            case "decode":
                let expectedBytes = try [UInt8](
                    Data(contentsOf: Self.directory!.appendingPathComponent(entry.expected!)))
                let expected = try Value(typedJSON: try JSONFormat().decode(expectedBytes))
                let decoded = try decode(file)
                #expect(Self.canonical(decoded) == Self.canonical(expected), "\(file)")
            case "reject":
                #expect(throws: FormatError.self, "\(file)") { try decode(file) }
            case "reject-or-limit":
                #expect(throws: FormatError.self, "\(file)") { try decode(file) }
            case "must-not-resolve":
                let text = (try? decode(file)).map { "\($0)" } ?? ""
                #expect(!text.contains("root:"), "no external content in \(file)")
            default:
                // impl-defined: deterministic, and never anything but a FormatError.
                let first = Result { try decode(file) }
                let second = Result { try decode(file) }
                switch (first, second) {
                case (.success(let a), .success(let b)): #expect(Self.canonical(a) == Self.canonical(b))
                case (.failure(let a), .failure(let b)):
                    #expect(a is FormatError)
                    #expect((a as? FormatError)?.code == (b as? FormatError)?.code)
                default: Issue.record("\(file) decoded differently twice")
                }
            }
        }
    }

    @Test func xmlAndBinaryFormsRoundTripEveryValidCase() throws {
        var skipped: [String] = []
        for entry in Self.cases where entry.expect == "decode" {
            let value = try decode(entry.files[0])
            for type: MediaType in ["application/x-plist", "application/x-bplist"] {
                let bytes: [UInt8]
                do {
                    bytes = try PropertyListFormat().encode(value, as: type)
                } catch let error as FormatError where error.code == .unsupportedValue && type.subtype == "x-plist" {
                    skipped.append(entry.name)   // control characters XML 1.0 cannot carry
                    continue
                }
                let again = try PropertyListFormat().decode(bytes)
                let xml = type.subtype == "x-plist"
                #expect(Self.canonical(again, millisecondDates: xml) == Self.canonical(value, millisecondDates: xml),
                        "\(entry.name) as \(type)")
            }
        }
        #expect(skipped == ["string-with-nul"], "only the control-character case has no XML form")
    }
}
