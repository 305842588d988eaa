import Parley

extension YAMLFormat {
    /// Runs libyaml's event loop over `bytes` without building anything, the way a program
    /// calling libyaml directly would, and returns the number of events.
    ///
    /// Tests use it to tell libyaml's own verdict on a document apart from Parley's.
    ///
    /// - Parameter bytes: The YAML stream.
    /// - Returns: The number of events libyaml produced, stream start and end included.
    /// - Throws: `FormatError` converted from libyaml's error.
    package static func countEvents(in bytes: [UInt8]) throws -> Int {
        try bytes.withUnsafeBytes { buffer in
            let parser = try EventParser(buffer, format: "yaml", reportsByteOffsets: true)
            var count = 0
            while true {
                try parser.next()
                count += 1
                if parser.isAtStreamEnd { return count }
            }
        }
    }
}
