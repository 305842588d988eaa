// swift-tools-version: 6.1
import PackageDescription

// A package that depends on Parley exactly as a third party would, and adds a format Parley does
// not know: `application/vnd.example.kv` (lines of `key=value`). Nothing in Parley changes.
//
// `name: "parley"` is required for a path dependency: without it the package's identity would be
// the checkout folder's name.
let registration = Target.PluginUsage.plugin(name: "ParleyFormatRegistration", package: "parley")
/// Imports are internal unless a file says `public import`, and a member is visible only where its module is
/// imported (as Parley itself builds).
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "key-value-format",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "KeyValue", targets: ["KeyValue"]),
        .executable(name: "kv-parley", targets: ["kv-parley"]),
    ],
    dependencies: [
        .package(name: "parley", path: "../.."),
    ],
    targets: [
        // The format: depends on the core only; `parley-format.json` makes the plugin register it.
        .target(name: "KeyValue", dependencies: [.product(name: "Parley", package: "parley")],
                exclude: ["parley-format.json"], swiftSettings: strictImports),
        // Our own `parley`: Parley's commands, Parley's JSON, and our format, registered by the plugin.
        .executableTarget(name: "kv-parley",
                          dependencies: [.product(name: "ParleyCLI", package: "parley"),
                                         .product(name: "ParleyJSON", package: "parley"),
                                         "KeyValue"],
                          swiftSettings: strictImports, plugins: [registration]),
        // Links KeyValue and ParleyJSON, so `Registry.linked` holds exactly those two.
        .testTarget(name: "KeyValueTests",
                    dependencies: ["KeyValue", .product(name: "Parley", package: "parley"),
                                   .product(name: "ParleyHTTP", package: "parley"),
                                   .product(name: "ParleyJSON", package: "parley"),
                                   .product(name: "ParleyTestKit", package: "parley")],
                    swiftSettings: strictImports, plugins: [registration]),
        // Runs the built kv-parley: `formats`, `decode --to application/json`, `negotiate`.
        .testTarget(name: "KvParleyTests", dependencies: ["kv-parley"], swiftSettings: strictImports),
    ],
    swiftLanguageModes: [.v6]
)
