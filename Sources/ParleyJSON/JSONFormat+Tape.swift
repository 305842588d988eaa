package import Parley

extension JSONFormat {
    /// The tape of a JSON body, parsed by the rules, limits and errors of ``decode(_:context:)``,
    /// for readers that walk the entries instead of building values (schema validation); `nil`
    /// when the body is blank or these options remove nulls, where ``decode(_:context:)`` gives
    /// a value the tape does not hold.
    package func tape(of bytes: [UInt8], mediaType: MediaType, limits: DecodingLimits) throws(FormatError)
        -> JSONTape?
    {
        if options.removesNullValues { return nil }
        var parsed: Result<JSONTape?, FormatError> = .success(nil)
        bytes.withUnsafeBytes { raw in
            parsed = Result { () throws(FormatError) -> JSONTape? in
                try withUTF8Text(raw, mediaType: mediaType, limits: limits) {
                    (text, offsetBase) throws(FormatError) -> JSONTape? in
                    switch try JSONTape.parse(text, options: options, limits: limits, offsetBase: offsetBase) {
                    case .tape(let tape): tape
                    case .blank: nil
                    }
                }
            }
        }
        return try parsed.get()
    }
}
