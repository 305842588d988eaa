import FoundationEssentials
import Parley
import ParleyJSON
import ParleyYAML

/// Reads a recording of any supported kind, detected from the content (not the file name).
///
/// ```swift
/// let recording = try RecordingReader().read(path: "Fixtures/recorded/github.har")
/// for exchange in recording.exchanges { print(exchange.response.status) }
/// ```
public struct RecordingReader: Sendable {
    /// The largest recording file read, in bytes. Default 512 MiB.
    public var maxFileBytes: Int

    /// Creates a reader.
    public init(maxFileBytes: Int = 512 << 20) {
        self.maxFileBytes = maxFileBytes
    }

    /// Reads the file at `path`.
    public func read(path: String) throws(RecordingError) -> Recording {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw RecordingError(.unreadable, path: path, "cannot read the file (\(systemErrorText(error)))")
        }
        guard data.count <= maxFileBytes else {
            throw RecordingError(.unreadable, path: path,
                                 "the file has \(data.count) bytes, over the limit of \(maxFileBytes)")
        }
        return try read(bytes: [UInt8](data), path: path)
    }

    /// Reads a recording held in memory; `path` names it in errors and reports.
    public func read(bytes: [UInt8], path: String) throws(RecordingError) -> Recording {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count else {
            throw RecordingError(.notARecording, path: path, "the file is empty")
        }
        let kind: RecordingKind
        let exchanges: [RecordedExchange]
        if bytes[start...].starts(with: Array("HTTP/".utf8)) {
            kind = .rawHTTP
            exchanges = try RawHTTPReader(path: path).exchanges(in: bytes, start: start)
        } else if bytes[start] == UInt8(ascii: "{") {
            let root = try decode(bytes, from: start, as: JSONFormat(), type: "application/json", path: path)
            if root["log"] != nil {
                kind = .har
                exchanges = try HARReader(path: path).exchanges(in: root)
            } else if let cassette = CassetteReader.kind(of: root, serializedAsJSON: true) {
                kind = cassette
                exchanges = try CassetteReader(path: path).exchanges(in: root, kind: cassette)
            } else {
                throw RecordingError(.notARecording, path: path,
                                     "JSON, but neither a HAR log nor a cassette (no \"log\", \"http_interactions\" " +
                                     "or \"interactions\")")
            }
        } else {
            let root: Value
            do {
                root = try decode(bytes, from: start, as: YAMLFormat(), type: "application/yaml", path: path)
            } catch {
                throw RecordingError(.notARecording, path: path,
                                     "not a HAR log, a cassette or a raw HTTP response (\(error.message))")
            }
            if case .array(let items) = root, items.first?["request"] != nil, items.first?["response"] != nil {
                throw RecordingError(.malformed, path: path,
                                     "a vcrpy cassette in the legacy pre-1.0 layout (a bare list of pickled Python " +
                                     "objects); re-record it with a current vcrpy")
            }
            guard let cassette = CassetteReader.kind(of: root, serializedAsJSON: false) else {
                throw RecordingError(.notARecording, path: path,
                                     "YAML, but not a cassette (no \"http_interactions\" or \"interactions\" list)")
            }
            kind = cassette
            exchanges = try CassetteReader(path: path).exchanges(in: root, kind: cassette)
        }
        return Recording(path: path, kind: kind, exchanges: exchanges, byteCount: bytes.count)
    }

    private func decode(_ bytes: [UInt8], from start: Int, as format: some Format, type: MediaType,
                        path: String) throws(RecordingError) -> Value {
        do {
            return try bytes[start...].withUnsafeBytes { raw in
                try format.decode(raw,
                        context: DecodingContext(mediaType: type, limits: DecodingLimits(maxBodyBytes: maxFileBytes)))
            }
        } catch let error as FormatError {
            var shifted = error
            if let offset = error.location?.byteOffset { shifted.location?.byteOffset = offset + start }
            throw RecordingError(.malformed, path: path,
                                 "invalid \(format.name.uppercased()): " +
                                 "\(shifted.message)\(shifted.location.map { " at \($0)" } ?? "")")
        } catch {
            throw RecordingError(.malformed, path: path, "invalid \(format.name.uppercased()): \(error)")
        }
    }
}
