// swift-tools-version: 6.1
import PackageDescription

// Parley inside Vapor 4: its own package, so a consumer that links only Parley and its formats
// never fetches or builds Vapor. It depends on Parley by path, as a third party would.
//
// The tests start the real server on 127.0.0.1 (ephemeral port) and run the shared live table
// of `ParleyServerTesting` against it with AsyncHTTPClient, plus Vapor-specific cases.
//
// `name: "parley"` is required for a path dependency: without it the package's identity would be
// the checkout folder's name.
let parley = { (product: String) in Target.Dependency.product(name: product, package: "parley") }
/// Imports are internal unless a file says `public import`, and a member is visible only where its
/// module is imported, as the root package's `strictImports`.
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "parley-vapor",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ParleyVapor", targets: ["ParleyVapor"]),
    ],
    dependencies: [
        // `make docs` builds the DocC catalog with warnings as errors.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        .package(name: "parley", path: "../.."),
        // Tests only: the shared live test table (ParleyServerTesting).
        .package(name: "parley-server-testing", path: "../ParleyServerTesting"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // The glue: Vapor's content coders for every registered format, negotiated responses,
        // problem-details errors, the contract middleware. Formats come from the application's registry.
        .target(name: "ParleyVapor",
                dependencies: [parley("Parley"), parley("ParleyHTTP"), parley("ParleyCompression"),
                               parley("ParleyOpenAPI"),
                               .product(name: "HTTPTypes", package: "swift-http-types"),
                               .product(name: "Vapor", package: "vapor")],
                swiftSettings: strictImports),
        .testTarget(name: "ParleyVaporTests",
                    dependencies: ["ParleyVapor", parley("Parley"), parley("ParleyHTTP"), parley("ParleyCompression"),
                                   parley("ParleyOpenAPI"),
                                   .product(name: "ParleyServerTesting", package: "parley-server-testing"),
                                   parley("ParleyJSON"), parley("ParleyYAML"), parley("ParleyXML"),
                                   parley("ParleyPropertyList"), parley("ParleyMessagePack"), parley("ParleyCSV"),
                                   .product(name: "Vapor", package: "vapor"),
                                   .product(name: "AsyncHTTPClient", package: "async-http-client")],
                    swiftSettings: strictImports,
                    plugins: [.plugin(name: "ParleyFormatRegistration", package: "parley")]),
    ],
    swiftLanguageModes: [.v6]
)
