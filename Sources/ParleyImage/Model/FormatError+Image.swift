public import Parley

extension FormatError.Code {
    /// The body's magic bytes name another image format than its `Content-Type` does (an
    /// `image/png` body holding a JPEG). See ``ImageFormat/Options/acceptsMislabelledBodies``.
    public static let mislabelled = FormatError.Code("mislabelled")
}
