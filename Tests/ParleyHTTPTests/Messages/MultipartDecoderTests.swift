import Parley
import ParleyHTTP
import Testing

@Suite struct MultipartDecoderTests {
    let body = Array(("preamble\r\n--XyZ\r\n"
        + "Content-Disposition: form-data; name=\"title\"\r\n\r\nHi\r\n"
        + "--XyZ  \r\n"
        + "content-disposition: form-data; name=\"file\"; filename=\"a.txt\"; filename*=UTF-8''%C3%A9.txt\r\n" +
          "Content-Type: text/plain; charset=utf-8\r\n\r\nline 1\r\n--not-the-boundary\r\n"
        + "--XyZ--\r\nepilogue").utf8)

    @Test func decodesFieldsFilesPreambleAndEpilogue() throws {
        let parts = try MultipartDecoder().decode(body, contentType: "multipart/form-data; boundary=XyZ")
        #expect(parts.count == 2)
        #expect(parts[0].name == "title")
        #expect(parts[0].text == "Hi")
        #expect(parts[0].filename == nil)
        #expect(parts[0].contentType == nil)
        #expect(parts[1].name == "file")
        #expect(parts[1].filename == "é.txt")
        #expect(parts[1].contentType == "text/plain; charset=utf-8")
        #expect(parts[1].text == "line 1\r\n--not-the-boundary")
        #expect(parts[1].headerFields.map(\.name) == ["content-disposition", "content-type"])
    }

    @Test func roundTripsTheEncoderWithBinaryContent() throws {
        var form = MultipartFormData()
        let binary: [UInt8] = Array(0...255) + Array("\r\n--\r\n\r\n".utf8)
        form.append(name: "naïve \"q\"", value: "text ✓")
        form.append(name: "bin", bytes: binary, filename: "b\"in.dat")
        form.append(name: "empty", bytes: [])
        let parts = try MultipartDecoder().decode(try form.encodedBytes(), contentType: form.contentType.description)
        #expect(parts.map(\.name) == ["naïve \"q\"", "bin", "empty"])
        #expect(parts[0].text == "text ✓")
        #expect(parts[1].body == binary)
        #expect(parts[1].filename == "b\"in.dat")
        #expect(parts[1].contentType == .applicationOctetStream)
        #expect(parts[2].body == [])
    }

    @Test func malformedAndTruncatedBodies() {
        let decoder = MultipartDecoder()
        func code(_ body: String, _ type: String = "multipart/form-data; boundary=b") -> FormatError.Code? {
            do {
                _ = try decoder.decode(Array(body.utf8), contentType: type)
                return nil
            } catch {
                return (error as? FormatError)?.code
            }
        }
        #expect(code("", "multipart/form-data") == .malformed)
        #expect(code("", "text/plain; boundary=b") == .malformed)
        #expect(code("no delimiter at all") == .malformed)
        #expect(code("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nnever closed") == .truncated)
        #expect(code("--b\r\nContent-Disposition: form-data; name=\"a\"") == .truncated)
        #expect(code("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--") == .malformed)
        #expect(code("--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--") == .malformed)
        #expect(code("--bjunk\r\n") == .malformed)
        #expect(code("--b\r\nno colon here\r\n\r\nx\r\n--b--") == .malformed)
        #expect(code("--b--") == nil)
    }

    @Test func limitsOnPartsSizesAndHeaders() throws {
        var form = try MultipartFormData(boundary: "b")
        for index in 0..<3 { form.append(name: "f\(index)", value: String(repeating: "x", count: 10)) }
        let bytes = try form.encodedBytes()
        func limit(_ limits: MultipartDecoder.Limits) -> String? {
            do {
                _ = try MultipartDecoder(limits: limits).decode(bytes, boundary: "b")
                return nil
            } catch {
                return (error as? FormatError)?.limit?.name
            }
        }
        #expect(limit(.init(maxParts: 3)) == nil)
        #expect(limit(.init(maxParts: 2)) == "maxParts")
        #expect(limit(.init(maxPartBytes: 10)) == nil)
        #expect(limit(.init(maxPartBytes: 9)) == "maxPartBytes")
        #expect(limit(.init(maxBodyBytes: bytes.count - 1)) == "maxBodyBytes")
        #expect(limit(.init(maxHeaderBytes: 8)) == "maxHeaderBytes")
    }

    @Test(arguments: [Int.max, Int.max - 2, 0, -5])
    func headerLimitsAtTheEdgesOfIntDoNotTrap(limit: Int) {
        let decoder = MultipartDecoder(limits: .init(maxHeaderBytes: limit))
        do {
            let parts = try decoder.decode(body, contentType: "multipart/form-data; boundary=XyZ")
            #expect(parts.count == 2)
        } catch let error as FormatError {
            #expect(limit <= 0 && error.code == .limitExceeded)
        } catch {
            Issue.record("not a FormatError: \(error)")
        }
    }
}
