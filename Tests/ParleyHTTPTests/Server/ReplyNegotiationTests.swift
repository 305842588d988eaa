import HTTPTypes
import Parley
import ParleyHTTP
import Testing

/// `ParleyServer.reply(with:for:options:)` negotiating type, coding, language and charset together,
/// and request bodies with a `Content-Encoding`.
@Suite struct ReplyNegotiationTests {
    /// A textual format whose text must stay UTF-8 (as JSON's must).
    struct UTF8OnlyFormat: Format {
        var name: String { "utf8-only" }
        var decodableMediaTypes: [MediaType] { ["application/vnd.test.utf8"] }
        var encodableMediaTypes: [MediaType] { ["application/vnd.test.utf8"] }
        var isTextual: Bool { true }
        func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
            .string(String(decoding: bytes, as: UTF8.self))
        }
        func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
            Array((value.stringValue ?? String(describing: value)).utf8)
        }
    }

    /// A format of already compressed data (as PNG is).
    struct PictureFormat: Format {
        var name: String { "picture" }
        var decodableMediaTypes: [MediaType] { ["image/x-test"] }
        var encodableMediaTypes: [MediaType] { ["image/x-test"] }
        var isCompressible: Bool { false }
        func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value { .bytes(Array(bytes)) }
        func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] { value.bytesValue ?? [] }
    }

    let registry = Registry(formats: [TextFormat(), UTF8OnlyFormat(), PictureFormat()])
    let reversing = ContentCodings([ReversingCoding()], encoders: [ReversingCoding()])
    let large = String(repeating: "negotiation ", count: 100)   // 1,200 bytes

    func request(_ fields: [(String, String)]) -> HTTPRequest {
        var request = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/")
        for (name, value) in fields {
            request.headerFields.append(HTTPField(name: HTTPField.Name(name)!, value: value))
        }
        return request
    }

    @Test func defaultOptionsNegotiateTheTypeAlone() throws {
        let reply = try ParleyServer(registry: registry).reply(with: .string(large), for: request([
            ("Accept", "text/plain"), ("Accept-Encoding", "x-reverse"), ("Accept-Language", "de"),
            ("Accept-Charset", "iso-8859-1")]))
        #expect(reply.headerFields[.vary] == "Accept")
        #expect(reply.headerFields[.contentEncoding] == nil)
        #expect(reply.headerFields[.contentLanguage] == nil)
        #expect(reply.headerFields[.contentType] == "text/plain; charset=utf-8")
        #expect(reply.body == Array(large.utf8))
    }

    @Test func compressesABodyOverTheThreshold() throws {
        let reply = try ParleyServer(registry: registry).reply(with: .string(large),
                for: request([("Accept-Encoding", "gzip, x-reverse;q=0.5")]),
                                       options: ReplyOptions(contentCodings: reversing))
        #expect(reply.contentEncoding == "x-reverse")
        #expect(reply.headerFields[.contentEncoding] == "x-reverse")
        #expect(reply.headerFields[.vary] == "Accept, Accept-Encoding")
        #expect(try ReversingCoding().decode(reply.body, maximumBytes: 1 << 20) == Array(large.utf8))
    }

    @Test func aBodyAtTheThresholdStaysIdentityButVaries() throws {
        let body = String(repeating: "a", count: 1024)
        let reply = try ParleyServer(registry: registry).reply(with: .string(body),
                                                               for: request([("Accept-Encoding", "x-reverse")]),
                                       options: ReplyOptions(contentCodings: reversing))
        #expect(reply.headerFields[.contentEncoding] == nil)
        #expect(reply.body == Array(body.utf8))
        #expect(reply.headerFields[.vary] == "Accept, Accept-Encoding")
        let lower = try ParleyServer(registry: registry).reply(with: .string(body),
                                                               for: request([("Accept-Encoding", "x-reverse")]),
                                       options: ReplyOptions(contentCodings: reversing, compressionThreshold: 1023))
        #expect(lower.contentEncoding == "x-reverse")
    }

    @Test func withoutAcceptEncodingTheReplyIsIdentity() throws {
        let reply = try ParleyServer(registry: registry).reply(with: .string(large), for: request([]),
                                                               options: ReplyOptions(contentCodings: reversing))
        #expect(reply.contentEncoding == nil)
        #expect(reply.body == Array(large.utf8))
    }

    @Test func aSmallBodyIsCodedWhenIdentityIsExcluded() throws {
        let reply = try ParleyServer(registry: registry).reply(with: "hi",
                for: request([("Accept-Encoding", "x-reverse, identity;q=0")]),
                                       options: ReplyOptions(contentCodings: reversing))
        #expect(reply.contentEncoding == "x-reverse")
        #expect(reply.body == ReversingCoding().encode(Array("hi".utf8)))
    }

    @Test func noAcceptableCodingIs406() {
        let error = #expect(throws: ParleyError.self) {
            try ParleyServer(registry: registry).reply(with: .string(large),
                                                       for: request([("Accept-Encoding", "gzip, identity;q=0")]),
                               options: ReplyOptions(contentCodings: reversing))
        }
        #expect(error?.code == .notAcceptable)
        #expect(error?.impliedStatus == .notAcceptable)
        #expect(error?.message.contains("x-reverse, identity") == true)
    }

    @Test func anIncompressibleFormatIsNeverCoded() throws {
        let picture = [UInt8](repeating: 7, count: 4096)
        let reply = try ParleyServer(registry: registry).reply(with: .bytes(picture),
                for: request([("Accept", "image/*"), ("Accept-Encoding", "x-reverse")]),
                                       options: ReplyOptions(contentCodings: reversing))
        #expect(reply.formatName == "picture")
        #expect(reply.headerFields[.contentEncoding] == nil)
        #expect(reply.body == picture)
        #expect(reply.headerFields[.vary] == "Accept")
    }

    @Test func negotiatesTheLanguageAndBuildsTheValueInIt() throws {
        let options = ReplyOptions(languages: ["en", "de"])
        var asked: String?? = .none
        let reply = try ParleyServer(registry: registry).reply(for: request([("Accept-Language", "de-CH, en;q=0.5")]),
                                                               options: options) { language in
            asked = language
            return .string(language == "de" ? "Hallo" : "Hello")
        }
        #expect(asked == "de")
        #expect(reply.language == "de")
        #expect(reply.body == Array("Hallo".utf8))
        #expect(reply.headerFields[.contentLanguage] == "de")
        #expect(reply.headerFields[.vary] == "Accept, Accept-Language")
        // The README's form: an object literal built per language.
        let greeting = try ParleyServer(registry: registry).reply(for: request([("Accept", "application/vnd.test.utf8"),
                                                                                ("Accept-Language", "de")]),
                                          options: options) { language in
            ["greeting": language == "de" ? "Hallo" : "Hello"]
        }
        #expect(String(decoding: greeting.body, as: UTF8.self).contains("Hallo"))
        let fallback = try ParleyServer(registry: registry).reply(with: "x", for: request([("Accept-Language", "ja")]),
                                          options: ReplyOptions(languages: ["en", "de"], defaultLanguage: "de"))
        #expect(fallback.headerFields[.contentLanguage] == "de")
    }

    @Test func transcodesToTheAcceptedCharsetAndLabelsIt() throws {
        let options = ReplyOptions(charsets: ["iso-8859-1", "shift_jis"])
        let latin = try ParleyServer(registry: registry).reply(with: "café",
                for: request([("Accept-Charset", "iso-8859-1, utf-8;q=0.5")]), options: options)
        #expect(latin.body == [0x63, 0x61, 0x66, 0xE9])
        #expect(latin.headerFields[.contentType] == "text/plain; charset=iso-8859-1")
        #expect(latin.contentType.charset == "iso-8859-1")
        #expect(latin.headerFields[.vary] == "Accept, Accept-Charset")
        // A charset only iconv writes.
        let japanese = try ParleyServer(registry: registry).reply(with: "日本",
                for: request([("Accept-Charset", "Shift_JIS")]), options: options)
        #expect(japanese.body == [0x93, 0xFA, 0x96, 0x7B])
        #expect(japanese.headerFields[.contentType] == "text/plain; charset=shift_jis")
    }

    @Test func staysUTF8WhenTheCharsetCannotHoldTheTextOrNoneIsAcceptable() throws {
        let options = ReplyOptions(charsets: ["iso-8859-1"])
        let euro = try ParleyServer(registry: registry).reply(with: "5 €",
                for: request([("Accept-Charset", "iso-8859-1")]), options: options)
        #expect(euro.headerFields[.contentType] == "text/plain; charset=utf-8")
        #expect(euro.body == Array("5 €".utf8))
        let none = try ParleyServer(registry: registry).reply(with: "x", for: request([("Accept-Charset", "koi8-r")]),
                                                              options: options)
        #expect(none.headerFields[.contentType] == "text/plain; charset=utf-8")
        #expect(none.headerFields[.vary] == "Accept, Accept-Charset")
    }

    @Test func aCharsetTheClientExcludedIsNeverSent() throws {
        let options = ReplyOptions(charsets: ["iso-8859-1"])
        let latin = try ParleyServer(registry: registry).reply(with: "café",
                for: request([("Accept-Charset", "utf-8;q=0")]), options: options)
        #expect(latin.headerFields[.contentType] == "text/plain; charset=iso-8859-1")
        #expect(latin.body == [0x63, 0x61, 0x66, 0xE9])
        // The text has no ISO 8859-1 form and UTF-8 is excluded: nothing acceptable.
        let error = try #require(throws: ParleyError.self) {
            try ParleyServer(registry: registry).reply(with: "5 €", for: request([("Accept-Charset", "utf-8;q=0")]),
                                                       options: options)
        }
        #expect(error.code == .notAcceptable)
        // `*;q=0` excludes every charset not named.
        #expect(throws: ParleyError.self) {
            try ParleyServer(registry: registry).reply(with: "x", for: request([("Accept-Charset", "koi8-r, *;q=0")]),
                                                       options: options)
        }
        let negotiator = CharsetNegotiator(charsets: ["utf-8", "iso-8859-1"])
        #expect(negotiator.unexcludedCharsetIndex(forAcceptCharset: "utf-8;q=0") == 1)
        #expect(CharsetNegotiator(charsets: ["utf-8"]).unexcludedCharsetIndex(forAcceptCharset: "UTF-8;q=0") == nil)
        #expect(negotiator.unexcludedCharsetIndex(forAcceptCharset: "koi8-r") == 0)
    }

    @Test func aFormatThatMustStayUTF8IsNotTranscoded() throws {
        let reply = try ParleyServer(registry: registry).reply(with: "café",
                for: request([("Accept", "application/vnd.test.utf8"), ("Accept-Charset", "iso-8859-1")]),
                                       options: ReplyOptions(charsets: ["iso-8859-1"]))
        #expect(reply.headerFields[.contentType] == "application/vnd.test.utf8; charset=utf-8")
        #expect(reply.body == Array("café".utf8))
        #expect(reply.headerFields[.vary] == "Accept")
    }

    @Test func negotiatesAllFourTogether() throws {
        let options = ReplyOptions(contentCodings: reversing, languages: ["en", "fr"], charsets: ["iso-8859-1"])
        let text = String(repeating: "déjà vu ", count: 200)
        let reply = try ParleyServer(registry: registry).reply(with: .string(text), for: request([
            ("Accept", "text/*"), ("Accept-Encoding", "x-reverse"), ("Accept-Language", "fr-FR"),
            ("Accept-Charset", "iso-8859-1")]),
                                       options: options)
        #expect(reply.headerFields[.vary] == "Accept, Accept-Encoding, Accept-Language, Accept-Charset")
        #expect(reply.headerFields[.contentType] == "text/plain; charset=iso-8859-1")
        #expect(reply.headerFields[.contentLanguage] == "fr")
        #expect(reply.headerFields[.contentEncoding] == "x-reverse")
        // Transcoded first, then coded: the coding wraps the Latin-1 bytes.
        let latin = try ReversingCoding().decode(reply.body, maximumBytes: 1 << 20)
        #expect(latin.count == text.unicodeScalars.count)
        #expect(try Charset.latin1.decode(latin.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: $0[...]) }) == text)
    }

    @Test func aProblemIsNeverRefusedForItsCoding() throws {
        let problem = ProblemDetails(.notFound, detail: String(repeating: "missing ", count: 200))
        let reply = try ParleyServer(registry: registry).reply(with: problem,
                for: request([("Accept", "application/vnd.test.utf8"), ("Accept-Encoding", "gzip, identity;q=0")]),
                                       options: ReplyOptions(contentCodings: reversing))
        #expect(reply.formatName == "utf8-only")
        #expect(reply.headerFields[.contentEncoding] == nil)
        #expect(reply.headerFields[.vary] == "Accept, Accept-Encoding")
        // An acceptable coding is used as for any reply.
        let coded = try ParleyServer(registry: registry).reply(with: problem,
                for: request([("Accept", "application/vnd.test.utf8"), ("Accept-Encoding", "x-reverse")]),
                                       options: ReplyOptions(contentCodings: reversing, compressionThreshold: 0))
        #expect(coded.headerFields[.contentEncoding] == "x-reverse")
    }

    @Test func theConverterWritesCharsetsFromUTF8WithinALimit() throws {
        let converter = SystemCharsetConverter()
        #expect(try converter.bytes(fromUTF8: Array("é".utf8), charset: "ISO-8859-1", maximumBytes: 10) == [0xE9])
        #expect(try converter.bytes(fromUTF8: Array("日本".utf8), charset: "EUC-JP", maximumBytes: 10)
                == [0xC6, 0xFC, 0xCB, 0xDC])
        #expect(throws: CharsetConversionError.invalidBytes(charset: "iso-8859-1", offset: 2)) {
            try converter.bytes(fromUTF8: Array("ab€".utf8), charset: "iso-8859-1", maximumBytes: 10)
        }
        #expect(throws: CharsetConversionError.invalidBytes(charset: "koi8-r", offset: 1)) {
            try converter.bytes(fromUTF8: Array("aé".utf8), charset: "koi8-r", maximumBytes: 10)
        }
        #expect(throws: CharsetConversionError.limitExceeded(maximum: 7)) {
            try converter.bytes(fromUTF8: Array("abcd".utf8), charset: "utf-16le", maximumBytes: 7)
        }
        #expect(throws: CharsetConversionError.limitExceeded(maximum: 3)) {
            try converter.bytes(fromUTF8: Array("日本".utf8), charset: "shift_jis", maximumBytes: 3)
        }
        #expect(throws: CharsetConversionError.unknownCharset("x-no-such-charset")) {
            try converter.bytes(fromUTF8: [0x61], charset: "x-no-such-charset", maximumBytes: 10)
        }
        // A converter written before this direction existed answers UTF-8 alone.
        struct OldConverter: CharsetConverting {
            func utf8(from bytes: [UInt8], charset: String,
                      maximumBytes: Int) throws(CharsetConversionError) -> [UInt8] { bytes }
        }
        #expect(try OldConverter().bytes(fromUTF8: [0x61], charset: "UTF-8", maximumBytes: 1) == [0x61])
        #expect(throws: CharsetConversionError.unknownCharset("iso-8859-1")) {
            try OldConverter().bytes(fromUTF8: [0x61], charset: "iso-8859-1", maximumBytes: 1)
        }
    }

    // MARK: Request bodies

    func upload(_ body: [UInt8], encoding: String?) -> HTTPRequest {
        var fields: [(String, String)] = [("Content-Type", "text/plain; charset=utf-8")]
        if let encoding { fields.append(("Content-Encoding", encoding)) }
        var request = request(fields)
        request.method = .post
        return request
    }

    @Test func undoesTheRequestsContentEncoding() throws {
        let coded = ReversingCoding().encode(Array("hello".utf8))
        #expect(try ParleyServer(registry: registry, contentCodings: reversing).decodeValue(coded,
                of: upload(coded, encoding: "X-Reverse")) == "hello")
        #expect(try ParleyServer(registry: registry).decodeValue(Array("plain".utf8),
                of: upload(Array("plain".utf8), encoding: "identity")) == "plain")
    }

    @Test func anUnknownRequestCodingIs415ListingTheSupportedOnes() {
        let coded = ReversingCoding().encode(Array("hello".utf8))
        for codings in [ContentCodings.none, reversing] {
            let error = #expect(throws: ParleyError.self) {
                try ParleyServer(registry: registry, contentCodings: codings).decodeValue(coded,
                        of: upload(coded, encoding: "br"))
            }
            #expect(error?.code == .unsupportedContentEncoding)
            #expect(error?.impliedStatus == .unsupportedMediaType)
        }
        #expect(ParleyServer(registry: registry, contentCodings: reversing).unsupportedMediaTypeFields[.acceptEncoding]
                == "x-reverse")
        #expect(ParleyServer(registry: registry, contentCodings: .none).unsupportedMediaTypeFields[.acceptEncoding]
                == "identity")
        #expect(ParleyServer(registry: registry, contentCodings: .none).unsupportedMediaTypeFields[.accept]
                == ParleyServer(registry: registry).unsupportedMediaTypeFields[.accept])
    }

    @Test func aRequestCodingIsUndoneWithinTheLimit() {
        let coded = ReversingCoding().encode([UInt8](repeating: 0x61, count: 2048))
        let error = #expect(throws: ParleyError.self) {
            try ParleyServer(registry: registry, contentCodings: reversing,
                             maxDecompressedBytes: 1024).decodeValue(coded, of: upload(coded, encoding: "x-reverse"))
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.impliedStatus == .contentTooLarge)
        let invalidText = Array("REVbut".utf8) + [0xFF]   // undone fine, then not UTF-8
        let decoded = #expect(throws: ParleyError.self) {
            try ParleyServer(registry: registry, contentCodings: reversing).decodeValue(invalidText,
                    of: upload(invalidText, encoding: "x-reverse"))
        }
        #expect(decoded?.impliedStatus == .badRequest)
    }
}
