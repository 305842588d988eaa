import Parley
import ParleyImage
import Testing

@Suite struct ImageSniffingTests {
    @Test(arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "png"),
        ([0xFF, 0xD8, 0xFF, 0xE0], "jpeg"),
        (Array("GIF89a".utf8), "gif"),
        (Array("GIF87a".utf8), "gif"),
        (Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("WEBPVP8 ".utf8), "webp"),
        ([0x42, 0x4D] + [UInt8](repeating: 0, count: 12) + [40, 0, 0, 0], "bmp"),
        ([0, 0, 1, 0, 1, 0], "ico"),
        ([0, 0, 2, 0, 1, 0], "ico"),
        ([0x49, 0x49, 0x2A, 0x00], "tiff"),
        ([0x4D, 0x4D, 0x00, 0x2A], "tiff"),
    ] as [([UInt8], String)])
    func recognisesMagicBytes(bytes: [UInt8], name: String) {
        #expect(ImageKind(sniffing: bytes)?.name == name)
    }

    @Test(
        arguments: [
            [], [0x89, 0x50, 0x4E], Array("GIF88a".utf8), Array("BM, not a bitmap header".utf8),
            [0, 0, 1, 0, 0, 0], Array("<html>".utf8), Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)
        ] as [[UInt8]])
    func rejectsLookalikes(bytes: [UInt8]) {
        #expect(ImageKind(sniffing: bytes) == nil)
    }

    @Test func mapsLabelsToKinds() {
        #expect(ImageKind(mediaType: "image/x-ms-bmp") == .bmp)
        #expect(ImageKind(mediaType: "image/x-icon") == .ico)
        #expect(ImageKind(mediaType: "image/jpg; q=1") == .jpeg)
        #expect(ImageKind(mediaType: "image/svg+xml") == nil)
    }

    @Test func reportsAMislabelWithoutDecoding() throws {
        let jpeg = try Image(width: 8, height: 8, rgba: testPattern(width: 8, height: 8, alpha: false)).encoded(
            as: .jpeg)
        #expect(ImageKind.mislabelling(of: jpeg, labelledAs: "image/png") == .jpeg)
        #expect(ImageKind.mislabelling(of: jpeg, labelledAs: "image/jpg") == nil)
        #expect(ImageKind.mislabelling(of: jpeg, labelledAs: "application/octet-stream") == nil)
        #expect(ImageKind.mislabelling(of: Array("<html>".utf8), labelledAs: "image/png") == nil)
    }

    @Test func aMislabelledBodyIsATypedErrorNamingTheRealFormat() throws {
        let jpeg = try Image(width: 8, height: 8, rgba: testPattern(width: 8, height: 8, alpha: false)).encoded(
            as: .jpeg)
        #expect { try ImageFormat().decode(jpeg, as: "image/png") } throws: { error in
            guard let error = error as? FormatError else { return false }
            return error.code == .mislabelled && error.message.contains("image/jpeg")
                && error.message.contains("image/png")
        }
    }

    @Test func aMislabelledBodyDecodesWhenTheCallerAcceptsIt() throws {
        let jpeg = try Image(width: 8, height: 8, rgba: testPattern(width: 8, height: 8, alpha: false)).encoded(
            as: .jpeg)
        let value = try ImageFormat(options: .init(acceptsMislabelledBodies: true)).decode(jpeg, as: "image/png")
        #expect(value["mediaType"] == "image/jpeg")
        #expect(value["labelledAs"] == "image/png")
        #expect(try ImageFormat().decode(jpeg, as: "image/pjpeg")["labelledAs"] == nil)
    }
}
