import Foundation
import Parley

/// The source text `new-format` writes: a format that builds, registers and passes
/// `ParleyTestKit` at once (it starts as plain text: the body as one string), with the places to
/// fill in marked `TODO`.
struct FormatTemplates {
    let scaffold: FormatScaffold

    /// The media type as a Swift string literal's contents.
    var mediaTypeLiteral: String {
        scaffold.mediaType.description.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
    }

    var format: String {
        let s = scaffold
        let textual = s.mediaType.type == "text"
        var text = """
        public import Parley

        /// The `\(s.mediaType)` format.
        ///
        /// Scaffolded by `swift package new-format`. It starts as plain text (the whole body is one
        /// string) so it builds, registers itself and passes `ParleyTestKit` at once; replace the
        /// bodies of `decode` and `encode` with the real format, and the samples in its tests.
        ///
        /// Limits: `DecodingLimits/maxBodyBytes` (and any others the real format needs: check
        /// `maxDepth` before opening a nested container, `maxNodes` per value produced).
        public struct \(s.formatType): Format {
            /// Creates the format.
            public init() {}

            /// `"\(s.formatName)"`: a short, stable, lower-case name for reports and errors.
            public var name: String { "\(s.formatName)" }

            /// The media types this format decodes, most preferred first (add aliases here).
            public var decodableMediaTypes: [MediaType] { ["\(mediaTypeLiteral)"] }

        """
        if s.encodes {
            text += """

                /// The media types this format encodes, most preferred first.
                public var encodableMediaTypes: [MediaType] { ["\(mediaTypeLiteral)"] }

            """
        }
        if textual {
            text += """

                /// `true`: the body is text, so an encoded `Content-Type` carries a `charset`.
                public var isTextual: Bool { true }

            """
        }
        text += """

            /// Decodes a body.
            ///
            /// - Throws: `FormatError` (`.malformed` with a location, `.truncated`, `.invalidText`,
            ///   `.limitExceeded`); never traps on bad input.
            public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
                try context.limits.checkBodySize(bytes.count, format: name)
                // TODO: parse the format into a Value.
                return .string(try Charset.decodeText(bytes, mediaType: context.mediaType, format: name))
            }

        """
        if s.encodes {
            text += """

                /// Encodes a value.
                ///
                /// - Throws: `FormatError` with `.unsupportedValue` for values the format cannot hold.
                public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
                    // TODO: write the value in the format.
                    guard case .string(let text) = value else {
                        throw FormatError(.unsupportedValue, format: name,
                                          "a \\(value.kindName) has no \\(name) form yet")
                    }
                    return Array(text.utf8)
                }

            """
        }
        return text + "}\n"
    }

    var tests: String {
        let s = scaffold
        var text = """
        import Parley
        import ParleyTestKit
        import Testing
        import \(s.name)

        @Suite struct \(s.formatType)Tests {
            let format = \(s.formatType)()

            /// Values the format must round-trip. TODO: replace with your format's own.
            static let samples: [Value] = ["hello", "héllo wörld ✓ 𝄞", ""]

            @Test func conformsToTheKit() {
                // TODO: once the format nests values, drop `checksDepth: false` and add malformedInputs.
                FormatConformance.expectConformance(of: format,
                                                    options: .init(samples: Self.samples, checksDepth: false))
            }

            @Test func isChosenForItsMediaType() {
                let registry = Registry(formats: [format])
                #expect(registry.decoder(forContentType: "\(mediaTypeLiteral)")?.format.name == "\(s.formatName)")

        """
        if s.encodes {
            text += """
                    #expect(registry.encoder(forAccept: "\(mediaTypeLiteral), */*;q=0.1")?.format.name
                            == "\(s.formatName)")

            """
        }
        return text + "    }\n}\n"
    }
}
