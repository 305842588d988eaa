/// What a format's decoder is told besides the bytes.
public struct DecodingContext: Sendable, Hashable {
    /// The media type the body is labelled with, parameters (such as `charset`) included.
    public var mediaType: MediaType
    /// The limits in force for this decode.
    public var limits: DecodingLimits

    /// Creates a decoding context.
    public init(mediaType: MediaType, limits: DecodingLimits = .standard) {
        self.mediaType = mediaType
        self.limits = limits
    }
}

/// What a format's encoder is told besides the value.
public struct EncodingContext: Sendable, Hashable {
    /// The media type chosen for the body.
    public var mediaType: MediaType

    /// Creates an encoding context.
    public init(mediaType: MediaType) {
        self.mediaType = mediaType
    }
}
