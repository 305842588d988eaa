public import Parley

extension MultipartFormData {
    /// One part of a form.
    public struct Part: Sendable {
        /// Where a part's bytes come from.
        public enum Content: Sendable {
            /// Bytes in memory.
            case bytes([UInt8])
            /// A file on disk of the given length, read when the body is produced.
            case file(path: String, length: Int)
            /// A stream of the given length; `open` makes a fresh reader each time.
            case stream(length: Int, open: @Sendable () throws -> any ByteReader)

            /// The number of content bytes.
            public var length: Int {
                switch self {
                case .bytes(let bytes): bytes.count
                case .file(_, let length), .stream(let length, _): length
                }
            }
        }

        /// The field name.
        public var name: String
        /// The filename, for file parts.
        public var filename: String?
        /// The part's `Content-Type`; `nil` writes none (a text field).
        public var contentType: MediaType?
        /// Further header fields, written after `Content-Type` as given (names and values must
        /// be valid header text).
        public var additionalHeaders: [(String, String)]
        /// The content.
        public var content: Content

        /// Creates a part.
        public init(name: String, filename: String? = nil, contentType: MediaType? = nil,
                    additionalHeaders: [(String, String)] = [], content: Content) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.additionalHeaders = additionalHeaders
            self.content = content
        }
    }
}

/// A source of bytes read front to back, such as a file or a socket.
///
/// Multipart stream parts use it; conformers need not be thread-safe (a reader is used by one
/// producer at a time).
public protocol ByteReader: AnyObject {
    /// Fills the start of `buffer` and returns how many bytes were written; 0 means the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}
