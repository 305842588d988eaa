// swift-tools-version: 6.1
import PackageDescription

// An AsyncHTTPClient transport for `ParleyClient`, and the streaming upstream calls of the
// gateway: a package of its own, so a consumer of Parley alone never fetches AsyncHTTPClient or
// NIO. It depends on the engine and `ParleyHTTP` only (not on `ParleyClient`, which links FoundationNetworking).
//
// The tests start a small HTTP/1.1 server (NIOHTTP1) on 127.0.0.1, ephemeral port, in the test
// process, and drive it through the transport and `ParleyClient`'s `Client`.
//
// `name: "parley"` is required for a path dependency: without it the identity would be the
// checkout folder's name.
let registration = Target.PluginUsage.plugin(name: "ParleyFormatRegistration", package: "parley")
/// Imports are internal unless a file says `public import`, and a member is visible only where its
/// module is imported, as the root package's `strictImports`.
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "parley-async-http-client",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ParleyAsyncHTTPClient", targets: ["ParleyAsyncHTTPClient"]),
    ],
    dependencies: [
        // `make docs` builds the DocC catalog with warnings as errors.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        .package(name: "parley", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Both come with the two above; named because the public API uses their types
        // (`ByteBuffer`, `HTTPHeaders`, `HTTPRequest`).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(name: "ParleyAsyncHTTPClient",
                dependencies: [.product(name: "Parley", package: "parley"),
                               .product(name: "ParleyHTTP", package: "parley"),
                               .product(name: "AsyncHTTPClient", package: "async-http-client"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio"),
                               .product(name: "HTTPTypes", package: "swift-http-types")],
                swiftSettings: strictImports),
        // `Client` from ParleyClient, JSON registered by the plugin, gzip from ParleyCompression,
        // and NIOPosix/NIOHTTP1 for the test server.
        .testTarget(name: "ParleyAsyncHTTPClientTests",
                    dependencies: ["ParleyAsyncHTTPClient",
                                   .product(name: "Parley", package: "parley"),
                                   .product(name: "ParleyHTTP", package: "parley"),
                                   .product(name: "ParleyClient", package: "parley"),
                                   .product(name: "ParleyJSON", package: "parley"),
                                   .product(name: "ParleyCompression", package: "parley"),
                                   .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                   .product(name: "NIOCore", package: "swift-nio"),
                                   .product(name: "NIOPosix", package: "swift-nio"),
                                   .product(name: "NIOHTTP1", package: "swift-nio"),
                                   .product(name: "HTTPTypes", package: "swift-http-types")],
                    swiftSettings: strictImports,
                    plugins: [registration]),
    ],
    swiftLanguageModes: [.v6]
)
