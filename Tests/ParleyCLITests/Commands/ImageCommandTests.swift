import Foundation
import Testing

/// `parley decode` on image bodies: metadata as typed JSON, a mislabelled body and a bomb exit 1.
@Suite struct ImageCommandTests {
    /// A 3×2 RGB PNG (red row, blue row), written out chunk by chunk with zlib and CRC-32.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0x12, 0x16, 0xF1,
        0x4D, 0x00, 0x00, 0x00, 0x11, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0x00,
        0x41, 0x0C, 0x30, 0xC6, 0x7F, 0x00, 0x3B, 0xD8, 0x05, 0xFB, 0x39, 0x4D, 0x96, 0xA5, 0x00, 0x00,
        0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    func withPNGFile(_ body: (String) throws -> Void) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-\(UUID().uuidString).png")
        try Data(Self.png).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        try body(url.path)
    }

    @Test func decodePrintsImageMetadata() throws {
        try withPNGFile { path in
            let result = try ParleyProcess.run(["decode", path, "--content-type", "image/png"])
            #expect(result.status == 0)
            #expect(result.stdout == #"{"mediaType":"image/png","format":"png","width":{"$int":"3"},"#
                + #""height":{"$int":"2"},"colorType":"rgb","bitDepth":{"$int":"8"},"hasAlpha":false,"#
                + #""frameCount":{"$int":"1"}}"# + "\n")
        }
    }

    @Test func aMislabelledImageExitsOneNamingTheRealType() throws {
        try withPNGFile { path in
            let result = try ParleyProcess.run(["decode", path, "--content-type", "image/jpeg"])
            #expect(result.status == 1)
            #expect(result.stderr.contains("image/png") && result.stderr.contains("mislabelled"))
        }
    }

    @Test func aTruncatedImageExitsOne() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-\(UUID().uuidString).png")
        try Data(Self.png.prefix(50)).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try ParleyProcess.run(["decode", url.path, "--content-type", "image/png"]).status == 1)
    }

    /// `../shared/corpora/image/bombs` beside the checkout (or under `PARLEY_CORPORA`), if present.
    static var bombs: URL? {
        let corpora = ProcessInfo.processInfo.environment["PARLEY_CORPORA"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("shared/corpora")
        let url = corpora.appendingPathComponent("image/bombs")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// Every bomb fails with a typed error in a process limited to 256 MB of address space
    /// (the bombs would need 2.5 to 40 GB of pixels): the limits act before any allocation.
    @Test func bombsFailFastInSmallMemory() throws {
        guard let bombs = Self.bombs else {
            print("corpus 'image' not found (expected ../shared/corpora/image beside the checkout, or " +
                  "PARLEY_CORPORA): skipped")
            return
        }
        let types = ["png": "image/png", "gif": "image/gif", "jpg": "image/jpeg", "bmp": "image/bmp",
                     "tif": "image/tiff"]
        let files = try FileManager.default.contentsOfDirectory(atPath: bombs.path)
            .filter { types[($0 as NSString).pathExtension] != nil }
        #expect(files.count == 8)
        for file in files {
            let type = types[(file as NSString).pathExtension]!
            let script = #"ulimit -v 262144 && exec "$0" decode "$1" --content-type "$2""#
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script, ParleyProcess.executable.path, bombs.appendingPathComponent(file).path,
                                 type]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 1, "\(file): \(message)")
            #expect(message.contains(file.contains("zero-width") ? "malformed" : "limitExceeded"),
                    "\(file): \(message)")
        }
    }
}
