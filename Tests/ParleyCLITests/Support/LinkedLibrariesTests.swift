import Foundation
import Testing

/// What the `parley` executable links: FoundationEssentials and no more of Foundation. All of
/// Foundation brings FoundationInternationalization and ICU, which double the static binary
/// (87 MB against 38 MB) and cost every run about 150 page faults and 0.5 ms of start-up.
@Suite struct LinkedLibrariesTests {
    @Test("parley links FoundationEssentials, not Foundation or its ICU")
    func onlyFoundationEssentials() throws {
        let binary = try Data(contentsOf: ParleyProcess.executable)
        // The dynamic section names each shared library the executable needs, NUL-terminated.
        func needs(_ library: String) -> Bool { binary.range(of: Data((library + "\0").utf8)) != nil }
        #expect(needs("libFoundationEssentials.so"))
        #expect(!needs("libFoundation.so"))
        #expect(!needs("libFoundationInternationalization.so"))
        #expect(!needs("lib_FoundationICU.so"))
    }
}
