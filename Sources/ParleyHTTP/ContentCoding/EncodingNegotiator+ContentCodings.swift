public import Parley

extension EncodingNegotiator {
    /// Creates a negotiator over the encoders of `contentCodings`, in their order.
    public init(_ contentCodings: ContentCodings) {
        self.init(codings: contentCodings.encoders.map(\.token))
    }
}
