// swift-tools-version: 6.1
import PackageDescription

// A small Hummingbird 2 service that answers in every format it links, with Parley:
// a Codable resource, a raw value tree, an upload, and the baseline routes `make server-bench`
// compares against (Hummingbird's own JSONEncoder/JSONDecoder).
//
// `name:` is required for path dependencies: without it the identity would be the folder's name.
let registration = Target.PluginUsage.plugin(name: "ParleyFormatRegistration", package: "parley")
/// Imports are internal unless a file says `public import`, and a member is visible only where its module is
/// imported (as Parley itself builds).
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

@MainActor
func parley(_ product: String) -> Target.Dependency {
    .product(name: product, package: "parley")
}

let package = Package(
    name: "hummingbird-service",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hummingbird-service", targets: ["HummingbirdService"]),
    ],
    dependencies: [
        .package(name: "parley", path: "../.."),
        .package(name: "parley-hummingbird", path: "../../Integrations/ParleyHummingbird"),
        .package(name: "parley-server-testing", path: "../../Integrations/ParleyServerTesting"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The routes; links every built-in format, so `Registry.linked` holds all six.
        .target(name: "HummingbirdServiceApp",
                dependencies: [.product(name: "ParleyHummingbird", package: "parley-hummingbird"),
                               parley("Parley"), parley("ParleyHTTP"), parley("ParleyJSON"), parley("ParleyYAML"),
                               parley("ParleyXML"), parley("ParleyPropertyList"), parley("ParleyMessagePack"),
                               parley("ParleyCSV"), parley("ParleyCompression"),
                               .product(name: "Hummingbird", package: "hummingbird")],
                swiftSettings: strictImports, plugins: [registration]),
        .executableTarget(name: "HummingbirdService", dependencies: ["HummingbirdServiceApp"],
                          swiftSettings: strictImports),
        .testTarget(name: "HummingbirdServiceTests",
                    dependencies: ["HummingbirdServiceApp",
                                   .product(name: "ParleyServerTesting", package: "parley-server-testing"),
                                   parley("Parley"), parley("ParleyHTTP"), parley("ParleyJSON"),
                                   .product(name: "Hummingbird", package: "hummingbird"),
                                   .product(name: "Logging", package: "swift-log"),
                                   .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
                    swiftSettings: strictImports),
    ],
    swiftLanguageModes: [.v6]
)
