import Parley
import Testing

/// This target links exactly ParleyJSON and ParleyYAML and uses the registration plugin.
@Suite struct LinkedFormatsTests {
    @Test func seesExactlyTheLinkedFormatModules() {
        #expect(Registry.linkedFormatModules == ["ParleyJSON", "ParleyYAML"])
        #expect(Registry.linkedFormats.map(\.name) == ["json", "yaml"])
    }

    @Test func linkedRegistryAddsTheBuiltInsAfterTheLinkedFormats() {
        #expect(Registry.linked.formats.map(\.name) == ["json", "yaml", "text", "form", "raw"])
        #expect(Registry.linked.decoder(forContentType: "application/problem+json")?.format.name == "json")
        #expect(Registry.linked.decoder(forContentType: "application/x-yaml")?.format.name == "yaml")
    }
}
