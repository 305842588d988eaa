// swift-tools-version: 6.1
import PackageDescription

// What a newcomer builds from the README alone: a package that depends on Parley by path, links
// the formats it wants (the registration plugin registers exactly those), answers a Codable `Book`
// in the format `Accept` asks for, reads it back from every format, and answers 406 and 415.
//
// `name: "parley"` gives the path dependency the identity the products are named by, whatever the
// checkout folder is called.
let parley = ["Parley", "ParleyHTTP", "ParleyJSON", "ParleyYAML", "ParleyXML", "ParleyCSV", "ParleyPropertyList",
              "ParleyMessagePack"]
    .map { Target.Dependency.product(name: $0, package: "parley") }
/// Imports are internal unless a file says `public import`, and a member is visible only where its module is
/// imported (as Parley itself builds).
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "newcomer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "parley", path: "../.."),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
    ],
    targets: [
        .target(name: "Bookshop", dependencies: parley + [.product(name: "HTTPTypes", package: "swift-http-types")],
                swiftSettings: strictImports, plugins: [.plugin(name: "ParleyFormatRegistration", package: "parley")]),
        .testTarget(name: "BookshopTests",
                    dependencies: ["Bookshop", .product(name: "Parley", package: "parley"),
                                   .product(name: "ParleyHTTP", package: "parley"),
                                   .product(name: "HTTPTypes", package: "swift-http-types")],
                    swiftSettings: strictImports),
    ],
    swiftLanguageModes: [.v6]
)
