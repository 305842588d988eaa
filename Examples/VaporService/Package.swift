// swift-tools-version: 6.1
import PackageDescription

// A small Vapor service answering in every format it links, through ParleyVapor: a Codable
// resource (books), a raw value tree (stats) and an upload in any format.
//
// `name:` is required for the path dependencies: without it a package's identity would be its
// folder's name.
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
                               .product(name: "Parley", package: "parley"), .product(name: "ParleyHTTP", package: "parley"),
                               .product(name: "ParleyJSON", package: "parley"),
                               .product(name: "ParleyYAML", package: "parley"),
                               .product(name: "ParleyXML", package: "parley"),
                               .product(name: "ParleyPropertyList", package: "parley"),
                               .product(name: "ParleyMessagePack", package: "parley"),
                               .product(name: "ParleyCSV", package: "parley"),
                               .product(name: "Vapor", package: "vapor")],
                plugins: [.plugin(name: "ParleyFormatRegistration", package: "parley")]),
        .executableTarget(name: "VaporService", dependencies: ["VaporServiceApp", .product(name: "Vapor", package: "vapor")]),
        .testTarget(name: "VaporServiceTests",
                    dependencies: ["VaporServiceApp", .product(name: "Parley", package: "parley"),
                                   .product(name: "Vapor", package: "vapor"),
                                   .product(name: "AsyncHTTPClient", package: "async-http-client")]),
    ],
    swiftLanguageModes: [.v6]
)
