import Foundation
import Parley
import ParleyHTTP
import Testing

@Suite struct MultipartFormDataTests {
    @Test func byteExactOutputForAFixedBoundary() throws {
        var form = try MultipartFormData(boundary: "XyZ")
        form.append(name: "title", value: "Hi")
        form.append(name: "file", bytes: Array("abc".utf8), filename: "a.txt")
        form.append(name: "blob", bytes: [0, 0xFF], filename: "data", contentType: "application/vnd.x")
        let expected = "--XyZ\r\n"
            + "Content-Disposition: form-data; name=\"title\"\r\n\r\nHi\r\n"
            + "--XyZ\r\n"
            + "Content-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\n" +
              "abc\r\n"
            + "--XyZ\r\n"
            + "Content-Disposition: form-data; name=\"blob\"; filename=\"data\"\r\n" +
              "Content-Type: application/vnd.x\r\n\r\n"
        let expectedBytes = Array(expected.utf8) + [0, 0xFF] + Array("\r\n--XyZ--\r\n".utf8)
        #expect(try form.encodedBytes() == expectedBytes)
        #expect(form.contentLength == expectedBytes.count)
        #expect(form.contentType.description == "multipart/form-data; boundary=XyZ")
    }

    @Test func emptyFormIsOnlyTheClosingDelimiter() throws {
        let form = try MultipartFormData(boundary: "b")
        #expect(try form.encodedBytes() == Array("--b--\r\n".utf8))
        #expect(form.contentLength == 7)
    }

    @Test func nonASCIINamesAndFilenames() throws {
        var form = try MultipartFormData(boundary: "b")
        form.append(name: "naïve \"q\"\r\n", bytes: [], filename: "résumé.PDF")
        #expect(String(decoding: try form.encodedBytes(), as: UTF8.self)
                == "--b\r\nContent-Disposition: form-data; name=\"naïve %22q%22%0D%0A\"; filename=\"résumé.PDF\"\r\n" +
                   "Content-Type: application/pdf\r\n\r\n\r\n--b--\r\n")
        form.extendedFilenames = .whenNotASCII
        #expect(String(decoding: try form.encodedBytes(),
                       as: UTF8.self).contains("filename=\"résumé.PDF\"; filename*=UTF-8''r%C3%A9sum%C3%A9.PDF\r\n"))
    }

    @Test func contentTypesFromTheExtensionTableWhichIsOverridable() throws {
        var form = try MultipartFormData(boundary: "b")
        form.typesByExtension["foo"] = "application/vnd.foo"
        form.append(name: "a", bytes: [], filename: "x.foo")
        form.append(name: "b", bytes: [], filename: "photo.JPG")
        form.append(name: "c", bytes: [], filename: "noextension")
        form.append(name: "d", bytes: [], filename: ".hidden")
        #expect(form.parts.map { $0.contentType?.description }
                == ["application/vnd.foo", "image/jpeg", "application/octet-stream", "application/octet-stream"])
        #expect(FileExtensionMediaTypes.fileExtension(of: "dir.v2/archive.tar.GZ") == "gz")
        #expect(FileExtensionMediaTypes.fileExtension(of: "dir.v2/README") == nil)
    }

    @Test func invalidBoundariesAreRefused() {
        for boundary in ["", String(repeating: "a", count: 71), "a\"b", "trailing ", "é"] {
            #expect(throws: FormatError.self) { try MultipartFormData(boundary: boundary) }
        }
    }

    @Test func randomBoundariesDifferAndAvoidInMemoryContent() {
        var form = MultipartFormData()
        let first = form.boundary
        #expect(first.hasPrefix("parley-") && first.utf8.count == 39)
        #expect(MultipartFormData().boundary != first)
        form.append(name: "evil", bytes: Array("x\r\n--\(first)--\r\n".utf8))
        #expect(form.boundary != first)
        #expect(form.parts.count == 1)
    }

    @Test func filePartsAreMeasuredWithoutReadingAndProducedExactly() throws {
        let file = try TemporaryFile(contents: Array("file body\n".utf8), name: "notes.txt")
        var form = try MultipartFormData(boundary: "b")
        try form.append(name: "doc", fileAt: file.path)
        let expected = "--b\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"notes.txt\"\r\n" +
                       "Content-Type: text/plain\r\n\r\nfile body\n\r\n--b--\r\n"
        #expect(form.contentLength == expected.utf8.count)
        #expect(try form.encodedBytes() == Array(expected.utf8))
        try form.write(toFileAt: file.path + ".out", chunkSize: 5)
        defer { try? FileManager.default.removeItem(atPath: file.path + ".out") }
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: file.path + ".out"))) == Array(expected.utf8))

        try file.replace(with: Array("longer body now\n".utf8))
        #expect { try form.encodedBytes() } throws: { ($0 as? FormatError)?.code == .malformed }
        try file.replace(with: Array("short".utf8))
        #expect { try form.encodedBytes() } throws: { ($0 as? FormatError)?.code == .truncated }
    }

    @Test func missingFilesAndDirectoriesAreRefused() throws {
        var form = MultipartFormData()
        #expect(throws: FormatError.self) { try form.append(name: "x", fileAt: "/no/such/file") }
        #expect(throws: FormatError.self) { try form.append(name: "x", fileAt: "/tmp") }
    }

    @Test func streamPartsAreOpenedAfreshAndMustMatchTheirLength() async throws {
        var form = try MultipartFormData(boundary: "b")
        form.append(name: "s", length: 3, filename: "s.bin") { MemoryByteReader([1, 2, 3]) }
        let head = "--b\r\nContent-Disposition: form-data; name=\"s\"; filename=\"s.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
        let expected = Array(head.utf8)
            + [1, 2, 3] + Array("\r\n--b--\r\n".utf8)
        #expect(try form.encodedBytes() == expected)
        #expect(try form.encodedBytes() == expected)
        var chunked: [UInt8] = []
        for try await chunk in form.chunks(size: 7) {
            #expect(chunk.count <= 7)
            chunked += chunk
        }
        #expect(chunked == expected)

        var wrong = try MultipartFormData(boundary: "b")
        wrong.append(name: "s", length: 4) { MemoryByteReader([1, 2, 3]) }
        #expect { try wrong.encodedBytes() } throws: { ($0 as? FormatError)?.code == .truncated }
    }

    /// A 1 GiB sparse file: the length is known from `stat`, the body is produced in 1 MiB
    /// chunks, and resident memory does not grow with the file.
    @Test func largeFilePartStreamsInBoundedMemory() throws {
        let size = 1 << 30
        let file = try TemporaryFile(sparseSize: size, name: "big.bin")
        var form = try MultipartFormData(boundary: "big")
        form.append(name: "note", value: "large")
        try form.append(name: "file", fileAt: file.path)
        let framing = Array(("--big\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nlarge\r\n--big\r\n"
                             + "Content-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n"
                             + "Content-Type: application/octet-stream\r\n\r\n").utf8)
        let tail = Array("\r\n--big--\r\n".utf8)
        #expect(form.contentLength == framing.count + size + tail.count)

        let chunkSize = 1 << 20
        let reader = form.makeReader()
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var produced = 0
        var first: [UInt8] = []
        var last: [UInt8] = []
        let residentBefore = ResidentMemory.current()
        var residentPeak = residentBefore
        while true {
            let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { break }
            #expect(count <= chunkSize)
            if produced == 0 { first = Array(buffer[0..<framing.count]) }
            last = Array((last + buffer[0..<count]).suffix(tail.count))
            produced += count
            if produced % (64 << 20) < chunkSize { residentPeak = max(residentPeak, ResidentMemory.current()) }
        }
        #expect(produced == form.contentLength)
        #expect(first == framing)
        #expect(last == tail)
        // Other tests run alongside in the same process (CI saw +200 MiB from them), so the bound
        // is half the file: a copy of the part would add the whole 1 GiB.
        #expect(residentPeak - residentBefore < 512 << 20,
                "resident memory grew by \(residentPeak - residentBefore) bytes")
    }
}

/// A file in the temporary directory, removed on deinit.
final class TemporaryFile {
    let path: String

    init(contents: [UInt8], name: String) throws {
        path = TemporaryFile.makeDirectory() + "/" + name
        try Data(contents).write(to: URL(fileURLWithPath: path))
    }

    init(sparseSize: Int, name: String) throws {
        path = TemporaryFile.makeDirectory() + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(sparseSize))
        try handle.close()
    }

    func replace(with contents: [UInt8]) throws {
        try Data(contents).write(to: URL(fileURLWithPath: path))
    }

    static func makeDirectory() -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-tests-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    deinit {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
}

/// The process's resident set size from `/proc/self/statm` (0 where unavailable).
enum ResidentMemory {
    static func current() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * 4096
    }
}
