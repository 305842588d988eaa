extension GatewayConfiguration {
    /// When the gateway transcodes an upstream body a registered format decodes (a route's
    /// `transcode:`).
    public enum TranscodeMode: String, Sendable, Equatable, CaseIterable {
        /// Into the type the client prefers: passed through when the upstream's type is the
        /// client's first choice among those the gateway can produce (or tied with it),
        /// transcoded when the client gives another a higher q
        /// (`Accept: application/json;q=0.1, application/yaml` from a JSON upstream gets YAML).
        case preferred
        /// Only when the client does not accept the upstream's type at all.
        case whenUnacceptable = "when-unacceptable"
    }
}
