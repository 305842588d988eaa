import Foundation

/// Writes raw bytes to standard output.
package enum FileHandleOutput {
    package static func write(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }
}
