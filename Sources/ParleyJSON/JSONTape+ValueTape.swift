// Public: the `@usableFromInline` tape witnesses `valueTape` with a `@usableFromInline` type of Parley.
public import Parley

extension JSONTape {
    /// The tape as encoders walk it (`ValueTape`): what lets an encoder transcode a JSON body
    /// without building its tree. Strings with escapes were decoded in place, so every string
    /// entry is text as it is.
    @usableFromInline
    package var valueTape: ValueTape? {
        ValueTape(entries: entries.baseAddress!, bytes: UnsafePointer(bytes.baseAddress!), strings: strings,
                  documentByteCount: textCount)
    }
}
