#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// The string of the UTF-8 bytes `bytes`, with invalid sequences replaced by U+FFFD: the
    /// same string as `String(decoding: bytes, as: UTF8.self)`, made the cheaper way for its length.
    ///
    /// Up to 15 bytes, which a `String` holds inline, the bytes are copied in one step into the
    /// string's own storage, where `init(unsafeUninitializedCapacity:initializingUTF8With:)`
    /// finds ASCII text valid from two words, where `init(decoding:as:)` copies them one byte at
    /// a time. Longer strings cost more this way than decoded, so they are decoded.
    package init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= 15, let base = bytes.baseAddress else {
            self.init(decoding: bytes, as: UTF8.self)
            return
        }
        self.init(unsafeUninitializedCapacity: bytes.count) { storage in
            memcpy(storage.baseAddress!, base, bytes.count)
            return bytes.count
        }
    }
}
