// swift-tools-version: 6.1
import PackageDescription

// Compiles every Swift snippet of README.md and the DocC catalogs (Sources/*/Docs.docc), as
// `make examples` runs it: `generate.py` writes each ```swift block into Sources/DocSnippets/Generated
// (not committed), wrapped in a function whose parameters snippets.json gives, then `swift build`.
// A doc edit that breaks a snippet fails the build, at the doc's own line.
let parleyProducts = ["Parley", "ParleyHTTP", "ParleyJSON", "ParleyYAML", "ParleyXML", "ParleyCSV",
                      "ParleyPropertyList", "ParleyMessagePack", "ParleyCBOR", "ParleyProtobuf", "ParleyImage",
                      "ParleyCompression", "ParleyClient", "ParleyFixtures", "ParleySchema", "ParleyOpenAPI",
                      "ParleyTestKit", "ParleyCLI"]
/// Imports are internal unless a file says `public import`, and a member is visible only where its module is
/// imported (as Parley itself builds).
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "doc-snippets",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "parley", path: "../.."),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
    ],
    targets: [
        // What every snippet may use without importing it: the modules a reader of the docs has.
        .target(name: "DocSnippetSupport",
                dependencies: parleyProducts.map { .product(name: $0, package: "parley") }
                    + [.product(name: "HTTPTypes", package: "swift-http-types"),
                       .product(name: "HTTPTypesFoundation", package: "swift-http-types")],
                swiftSettings: strictImports),
        // Snippets keep what they show (a `let` a reader would go on to use): their unused-value
        // warnings are not ours to fix, so they are not printed.
        .target(name: "DocSnippets", dependencies: ["DocSnippetSupport"],
                swiftSettings: strictImports + [.unsafeFlags(["-suppress-warnings"])],
                plugins: [.plugin(name: "ParleyFormatRegistration", package: "parley")]),
    ],
    swiftLanguageModes: [.v6]
)
