// swift-tools-version: 6.1
import PackageDescription

// parley-gateway: a transcoding reverse proxy on SwiftNIO channel handlers (Hummingbird 2 serves its
// admin port). A package of its own so that neither the `parley` tool nor a consumer of the core
// builds NIO. The tests' HTTP/1.1 client is NIO's own codec, not AsyncHTTPClient: its TLS stack
// (BoringSSL) would be compiled again for each sanitized build.
//
// `ParleyGateway` is the proxy as a library (tests start it in-process on ephemeral ports);
// `parley-gateway` is the executable: flags, the YAML configuration, signals.
let registration = Target.PluginUsage.plugin(name: "ParleyFormatRegistration", package: "parley")
let parley = { (name: String) in Target.Dependency.product(name: name, package: "parley") }
let formats = ["ParleyJSON", "ParleyYAML", "ParleyXML", "ParleyPropertyList", "ParleyMessagePack", "ParleyCSV",
               "ParleyCBOR", "ParleyProtobuf"].map(parley)
/// Imports are internal unless a file says `public import`, and a member is visible only where its
/// module is imported, as the root package's `strictImports`.
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "parley-gateway",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ParleyGateway", targets: ["ParleyGateway"]),
        .executable(name: "parley-gateway", targets: ["parley-gateway"]),
    ],
    dependencies: [
        .package(name: "parley", path: "../.."),
        // No default traits: swift-configuration support and full Foundation are not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `make docs` builds the DocC catalog with warnings as errors.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        .target(name: "ParleyGateway",
                dependencies: [parley("Parley"), parley("ParleyHTTP"), parley("ParleyCompression"),
                               parley("ParleyFixtures"), parley("ParleyYAML"), parley("ParleyProtobuf"),
                               parley("ParleyOpenAPI"),
                               .product(name: "Hummingbird", package: "hummingbird"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                               .product(name: "NIOPosix", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio"),
                               .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                               .product(name: "NIOHPACK", package: "swift-nio-http2"),
                               .product(name: "NIOExtras", package: "swift-nio-extras"),
                               .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                               .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                               .product(name: "NIOHTTPTypesHTTP2", package: "swift-nio-extras"),
                               .product(name: "HummingbirdCore", package: "hummingbird"),
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "Metrics", package: "swift-metrics"),
                               .product(name: "Prometheus", package: "swift-prometheus"),
                               .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
                swiftSettings: strictImports),
        // Links every built-in format but images: `Registry.linked` is what the gateway transcodes
        // (protobuf once a route names descriptor sets).
        .executableTarget(name: "parley-gateway",
                          dependencies: ["ParleyGateway", parley("Parley"),
                                         .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                         .product(name: "Logging", package: "swift-log"),
                                         .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                         .product(name: "UnixSignals", package: "swift-service-lifecycle")]
                              + formats,
                          swiftSettings: strictImports,
                          plugins: [registration]),
        // The floor `make gateway-bench` measures the gateway against: two channels joined byte
        // for byte (Sources/nio-byte-relay says what and why).
        .executableTarget(name: "nio-byte-relay",
                          dependencies: [.product(name: "NIOCore", package: "swift-nio"),
                                         .product(name: "NIOPosix", package: "swift-nio")],
                          swiftSettings: strictImports),
        .testTarget(name: "ParleyGatewayTests",
                    dependencies: ["ParleyGateway", parley("ParleyCompression"), parley("ParleyHTTP"),
                                   parley("ParleyOpenAPI"),
                                   .product(name: "Hummingbird", package: "hummingbird"),
                                   .product(name: "NIOCore", package: "swift-nio"),
                                   .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                                   .product(name: "NIOPosix", package: "swift-nio"),
                                   .product(name: "NIOEmbedded", package: "swift-nio"),
                                   .product(name: "NIOHTTP1", package: "swift-nio"),
                                   .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                                   .product(name: "NIOHPACK", package: "swift-nio-http2"),
                                   .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                                   .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                                   .product(name: "NIOHTTPTypesHTTP2", package: "swift-nio-extras"),
                                   .product(name: "Logging", package: "swift-log"),
                                   .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")] + formats,
                    swiftSettings: strictImports,
                    plugins: [registration]),
    ],
    swiftLanguageModes: [.v6]
)
