// swift-tools-version: 6.1
import PackageDescription

// The shared live test tables for Parley's server integrations: `LiveTable` (the cases),
// `LiveRunner` (drives a base URL with AsyncHTTPClient) and `RouteContract` (the routes a server
// under test exposes), and `ContractTable` (the contract middleware's document, routes and cases). A package of its own, under `Integrations/`, used by the integrations'
// tests only, so that neither a consumer of `Parley` nor one of an integration fetches
// AsyncHTTPClient. The glue the integrations share, `ParleyServer`, is in the core.
//
// `name: "parley"` is required for a path dependency: without it the identity would be the
// checkout folder's name.
/// Imports are internal unless a file says `public import`, and a member is visible only where its
/// module is imported, as the root package's `strictImports`.
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "parley-server-testing",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ParleyServerTesting", targets: ["ParleyServerTesting"]),
    ],
    dependencies: [
        .package(name: "parley", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(name: "ParleyServerTesting",
                dependencies: [.product(name: "Parley", package: "parley"),
                               .product(name: "ParleyHTTP", package: "parley"),
                               .product(name: "ParleyJSON", package: "parley"),
                               .product(name: "ParleyYAML", package: "parley"),
                               .product(name: "ParleyXML", package: "parley"),
                               .product(name: "ParleyPropertyList", package: "parley"),
                               .product(name: "ParleyMessagePack", package: "parley"),
                               .product(name: "ParleyCSV", package: "parley"),
                               .product(name: "ParleyCompression", package: "parley"),
                               .product(name: "ParleyOpenAPI", package: "parley"),
                               .product(name: "AsyncHTTPClient", package: "async-http-client"),
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio"),
                               .product(name: "HTTPTypes", package: "swift-http-types")],
                swiftSettings: strictImports),
    ],
    swiftLanguageModes: [.v6]
)
