// swift-tools-version: 6.1
import PackageDescription

// Parley inside Hummingbird 2: a package of its own so that a consumer linking only `Parley` and
// a format never fetches or builds Hummingbird or NIO.
//
// The tests start the real server on 127.0.0.1 (ephemeral port) and run the shared live table
// of `ParleyServerTesting` against it with AsyncHTTPClient.
//
// `name: "parley"` is required for a path dependency: without it the identity would be the
// checkout folder's name.
let registration = Target.PluginUsage.plugin(name: "ParleyFormatRegistration", package: "parley")
let parley = { (product: String) in Target.Dependency.product(name: product, package: "parley") }
/// Imports are internal unless a file says `public import`, and a member is visible only where its
/// module is imported, as the root package's `strictImports`.
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "parley-hummingbird",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ParleyHummingbird", targets: ["ParleyHummingbird"]),
    ],
    dependencies: [
        // `make docs` builds the DocC catalog with warnings as errors.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        .package(name: "parley", path: "../.."),
        .package(name: "parley-server-testing", path: "../ParleyServerTesting"),
        // No default traits: swift-configuration support and full Foundation are not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // The contract middleware's log (the tests' quiet logger), and, for tests only, a graceful
        // shutdown of the server under test.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .target(name: "ParleyHummingbird",
                dependencies: [parley("Parley"), parley("ParleyHTTP"), parley("ParleyCompression"),
                               parley("ParleyOpenAPI"),
                               .product(name: "Hummingbird", package: "hummingbird"),
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: strictImports),
        // Links every built-in format, so `Registry.linked` holds all six (and the core's own).
        .testTarget(name: "ParleyHummingbirdTests",
                    dependencies: ["ParleyHummingbird",
                                   .product(name: "ParleyServerTesting", package: "parley-server-testing"),
                                   parley("Parley"), parley("ParleyHTTP"), parley("ParleyOpenAPI"),
                                   parley("ParleyJSON"),
                                   parley("ParleyYAML"), parley("ParleyXML"), parley("ParleyPropertyList"),
                                   parley("ParleyMessagePack"), parley("ParleyCSV"),
                                   .product(name: "Hummingbird", package: "hummingbird"),
                                   .product(name: "Logging", package: "swift-log"),
                                   .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
                    swiftSettings: strictImports,
                    plugins: [registration]),
    ],
    swiftLanguageModes: [.v6]
)
