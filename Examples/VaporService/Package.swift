// swift-tools-version: 6.1
import PackageDescription

// A small Vapor service answering in every format it links, through ParleyVapor: a Codable
// resource (books), a raw value tree (stats) and an upload in any format.
//
// `name:` is required for the path dependencies: without it a package's identity would be its
// folder's name.
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
    name: "vapor-service",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "parley", path: "../.."),
        .package(name: "parley-vapor", path: "../../Integrations/ParleyVapor"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // The routes, and the formats the service answers in (registered by the plugin).
        .target(name: "VaporServiceApp",
                dependencies: [.product(name: "ParleyVapor", package: "parley-vapor"),
                               parley("Parley"), parley("ParleyHTTP"), parley("ParleyJSON"), parley("ParleyYAML"),
                               parley("ParleyXML"), parley("ParleyPropertyList"), parley("ParleyMessagePack"),
                               parley("ParleyCSV"), .product(name: "Vapor", package: "vapor")],
                swiftSettings: strictImports,
                plugins: [.plugin(name: "ParleyFormatRegistration", package: "parley")]),
        .executableTarget(name: "VaporService",
                          dependencies: ["VaporServiceApp", .product(name: "Vapor", package: "vapor")],
                          swiftSettings: strictImports),
        .testTarget(name: "VaporServiceTests",
                    dependencies: ["VaporServiceApp", parley("Parley"), .product(name: "Vapor", package: "vapor"),
                                   .product(name: "AsyncHTTPClient", package: "async-http-client")],
                    swiftSettings: strictImports),
    ],
    swiftLanguageModes: [.v6]
)
