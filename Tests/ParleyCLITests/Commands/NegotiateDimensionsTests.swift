import Foundation
import Testing

/// `parley negotiate` with Accept-Encoding, Accept-Language and Accept-Charset, through the
/// built executable.
@Suite struct NegotiateDimensionsTests {
    @Test func printsEachNegotiatedDimension() throws {
        let result = try ParleyProcess.run([
            "negotiate", "--accept", "application/json", "--accept-encoding", "gzip, deflate, br, zstd", "--encodings",
            "br,gzip",
            "--accept-language", "en-GB,en;q=0.9,de;q=0.8", "--languages", "de,en",
            "--accept-charset", "iso-8859-1, utf-8;q=0.5", "--charsets", "iso-8859-1", "application/json", "text/csv"])
        #expect(result.status == 0)
        #expect(result.stdout == "type: application/json\nencoding: br\nlanguage: en\ncharset: iso-8859-1\n")
    }

    @Test func encodingAlone() throws {
        #expect(try ParleyProcess.run(["negotiate", "--accept-encoding", "gzip;q=0.5, br;q=0.1"]).stdout
                == "encoding: gzip\n")
        #expect(try ParleyProcess.run(["negotiate", "--encodings", "br"]).stdout == "encoding: identity\n")
        #expect(try ParleyProcess.run(["negotiate", "--accept-encoding", "", "--encodings", "br"]).stdout
                == "encoding: identity\n")
    }

    @Test func exitsThreeWhenEvenIdentityIsExcluded() throws {
        let result = try ParleyProcess.run(["negotiate", "--accept-encoding", "compress, identity;q=0", "--encodings",
                                            "gzip"])
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("nothing acceptable for Accept-Encoding"))
    }

    @Test func languageFallsBackToTheFirstOffered() throws {
        let result = try ParleyProcess.run(["negotiate", "--accept-language", "ja", "--languages", "fr, en"])
        #expect(result.stdout == "language: fr\n")
    }

    @Test func charsetFallsBackToUTF8() throws {
        let result = try ParleyProcess.run(["negotiate", "--accept-charset", "koi8-r", "--charsets", "iso-8859-1"])
        #expect(result.stdout == "charset: utf-8\n")
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try ParleyProcess.run(["negotiate", "--accept-language", "en"]).status == 2)
        #expect(try ParleyProcess.run(["negotiate", "--languages", ","]).status == 2)
    }

    @Test func batchAnswersTheDimensionsEachLineAsks() throws {
        let input = """
        {"accept_encoding": "gzip;q=0.5, br", "encodings": ["gzip", "br"]}
        {"accept_encoding": "br;q=0, identity;q=0", "encodings": ["gzip", "br"]}
        {"accept_language": "fr-CA", "languages": ["en", "fr"], "accept_charset": null, "charsets": ["iso-8859-1"]}
        {"accept": "text/*", "offers": ["application/json", "text/csv"], \
        "accept_charset": "iso-8859-1", "charsets": ["iso-8859-1"]}
        {"accept": "text/*", "offers": ["text/csv"]}
        {"accept_language": "en"}
        """
        let result = try ParleyProcess.run(["negotiate", "--batch"], input: input)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(result.status == 0)
        #expect(lines.count == 6)
        #expect(lines[0] == #"{"encoding": "br"}"#)
        #expect(lines[1] == #"{"encoding": null}"#)
        #expect(lines[2] == #"{"language": "fr", "charset": "utf-8"}"#)
        #expect(lines[3] == #"{"choice": "text/csv", "charset": "iso-8859-1"}"#)
        #expect(lines[4] == #"{"choice": "text/csv"}"#)
        #expect(lines[5].hasPrefix(#"{"error": "#))
    }

    @Test func helpShowsTheNewExamples() throws {
        let result = try ParleyProcess.run(["negotiate", "--help"])
        #expect(result.stdout.contains("--accept-encoding"))
        #expect(result.stdout.contains("--accept-language 'en-GB,de;q=0.8'"))
        #expect(result.stdout.contains("accept_charset"))
    }
}
