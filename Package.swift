// swift-tools-version: 6.1
import PackageDescription

/// System C libraries each format owns (`[system]` module maps with a `shim.h`).
let systemLibraries: [Target] = [
    .systemLibrary(name: "CParleyXML", pkgConfig: "libxml-2.0",
                   providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
    .systemLibrary(name: "CParleyYAML", pkgConfig: "yaml-0.1",
                   providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
    .systemLibrary(name: "CParleyZlib", pkgConfig: "zlib",
                   providers: [.apt(["zlib1g-dev"])]),
    // libbrotlienc sits beside libbrotlidec; the module map links both.
    .systemLibrary(name: "CParleyBrotli", pkgConfig: "libbrotlidec",
                   providers: [.apt(["libbrotli-dev"]), .brew(["brotli"])]),
    .systemLibrary(name: "CParleyZstd", pkgConfig: "libzstd",
                   providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
    .systemLibrary(name: "CParleyPNG", pkgConfig: "libpng",
                   providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
    .systemLibrary(name: "CParleyJPEG", pkgConfig: "libjpeg",
                   providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]),
    .systemLibrary(name: "CParleyGIF", providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),
    .systemLibrary(name: "CParleyWebP", pkgConfig: "libwebp",
                   providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
    .systemLibrary(name: "CParleyTIFF", pkgConfig: "libtiff-4",
                   providers: [.apt(["libtiff-dev"]), .brew(["libtiff"])]),
]

let httpTypes = Target.Dependency.product(name: "HTTPTypes", package: "swift-http-types")
let httpTypesFoundation = Target.Dependency.product(name: "HTTPTypesFoundation", package: "swift-http-types")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let swiftProtobuf = Target.Dependency.product(name: "SwiftProtobuf", package: "swift-protobuf")
let registration = Target.PluginUsage.plugin(name: "ParleyFormatRegistration")
/// Imports are internal unless a file says `public import`, and a member is visible only where its module is
/// imported (as swift-http-types and hummingbird build).
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "parley",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Parley", targets: ["Parley"]),
        .library(name: "ParleyHTTP", targets: ["ParleyHTTP"]),
        .library(name: "ParleyJSON", targets: ["ParleyJSON"]),
        .library(name: "ParleyYAML", targets: ["ParleyYAML"]),
        .library(name: "ParleyPropertyList", targets: ["ParleyPropertyList"]),
        .library(name: "ParleyXML", targets: ["ParleyXML"]),
        .library(name: "ParleyImage", targets: ["ParleyImage"]),
        .library(name: "ParleyCSV", targets: ["ParleyCSV"]),
        .library(name: "ParleyMessagePack", targets: ["ParleyMessagePack"]),
        .library(name: "ParleySchema", targets: ["ParleySchema"]),
        .library(name: "ParleyOpenAPI", targets: ["ParleyOpenAPI"]),
        .library(name: "ParleyCBOR", targets: ["ParleyCBOR"]),
        .library(name: "ParleyProtobuf", targets: ["ParleyProtobuf"]),
        .library(name: "ParleyCompression", targets: ["ParleyCompression"]),
        .library(name: "ParleyFixtures", targets: ["ParleyFixtures"]),
        .library(name: "ParleyClient", targets: ["ParleyClient"]),
        .library(name: "ParleyTestKit", targets: ["ParleyTestKit"]),
        .library(name: "ParleyCLI", targets: ["ParleyCLI"]),
        .executable(name: "parley", targets: ["parley"]),
        .plugin(name: "ParleyFormatRegistration", targets: ["ParleyFormatRegistration"]),
        .plugin(name: "NewFormat", targets: ["NewFormat"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // ParleyProtobuf reads descriptor sets with its descriptor types (the library only, never its plugin).
        // No traits: its default BinaryDelimitedStreams trait imports all of Foundation (and ICU) into parley.
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0", traits: []),
        // Documentation only: `make docs` (swift package generate-documentation); builds nothing else.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: systemLibraries + [
        // The engine: media types, negotiation, registry lookups, formats, the value tree. No C.
        .target(name: "Parley", dependencies: [httpTypes], swiftSettings: strictImports),
        // The HTTP layer: content coding, the response pipeline, request bodies, problem details,
        // and ParleyServer, the one server-side entry point.
        .target(name: "ParleyHTTP", dependencies: ["Parley", httpTypes], swiftSettings: strictImports),

        // Formats: each depends on the core and its own C libraries only.
        .target(name: "ParleyJSON", dependencies: ["Parley"], exclude: ["parley-format.json"],
                swiftSettings: strictImports),
        .target(name: "ParleyYAML", dependencies: ["Parley", "CParleyYAML"], exclude: ["parley-format.json"],
                swiftSettings: strictImports),
        .target(name: "ParleyPropertyList", dependencies: ["Parley"], exclude: ["parley-format.json"],
                swiftSettings: strictImports),
        .target(name: "ParleyXML", dependencies: ["Parley", "CParleyXML"], exclude: ["parley-format.json"],
                swiftSettings: strictImports),
        .target(name: "CParleyImageShims",
                dependencies: ["CParleyJPEG", "CParleyPNG", "CParleyGIF", "CParleyWebP", "CParleyTIFF"],
                linkerSettings: [.linkedLibrary("gif"), .linkedLibrary("webpdemux")]),
        .target(name: "ParleyImage",
                dependencies: ["Parley", "CParleyImageShims", "CParleyPNG", "CParleyJPEG", "CParleyGIF", "CParleyWebP",
                               "CParleyTIFF"],
                exclude: ["parley-format.json"], swiftSettings: strictImports),
        .target(name: "ParleyCSV", dependencies: ["Parley"], exclude: ["parley-format.json"],
                swiftSettings: strictImports),
        .target(name: "ParleyMessagePack", dependencies: ["Parley"], exclude: ["parley-format.json"],
                swiftSettings: strictImports),
        .target(name: "ParleyCBOR", dependencies: ["Parley"], exclude: ["parley-format.json"],
                swiftSettings: strictImports),

        // JSON Schema over `Value`, and over a JSON text's tape (validated without building its values).
        .target(name: "ParleySchema", dependencies: ["Parley", "ParleyJSON"],
                exclude: ["MetaSchemas/generate-meta-schemas.py"],
                swiftSettings: strictImports),
        .target(name: "ParleyProtobuf", dependencies: ["Parley", swiftProtobuf], exclude: ["parley-format.json"],
                swiftSettings: strictImports),
        // OpenAPI contract checking of exchanges: documents read over Parley's values, schemas through
        // ParleySchema, request bodies' content codings undone as a server's pipeline does.
        .target(name: "ParleyOpenAPI",
                dependencies: ["Parley", "ParleyJSON", "ParleySchema", "ParleyHTTP", "ParleyCompression", httpTypes],
                swiftSettings: strictImports),

        // Recorded exchanges, compression, the client side.
        .target(name: "ParleyCompression",
                dependencies: ["Parley", "ParleyHTTP", "CParleyZlib", "CParleyBrotli", "CParleyZstd"],
                swiftSettings: strictImports),
        // Recordings: read, checked (against an OpenAPI document too), reported, replayed, recorded.
        .target(name: "ParleyFixtures",
                dependencies: ["Parley", "ParleyHTTP", "ParleyJSON", "ParleyYAML", "ParleyCompression",
                               "ParleyOpenAPI", httpTypes],
                swiftSettings: strictImports),
        .target(name: "ParleyClient",
                dependencies: ["Parley", "ParleyHTTP", "ParleyJSON", "ParleyCompression", httpTypes,
                               httpTypesFoundation],
                swiftSettings: strictImports),
        .target(name: "ParleyTestKit", dependencies: ["Parley"], swiftSettings: strictImports),

        // The command-line tool: commands in a library, formats linked by the executable.
        .target(name: "ParleyCLI",
                dependencies: ["Parley", "ParleyHTTP", "ParleyJSON", "ParleyFixtures", "ParleySchema", "ParleyOpenAPI",
                               argumentParser, httpTypes],
                swiftSettings: strictImports),
        .executableTarget(
            name: "parley",
            dependencies: ["ParleyCLI", "Parley", "ParleyJSON", "ParleyYAML", "ParleyPropertyList", "ParleyXML",
                           "ParleyImage", "ParleyCSV", "ParleyMessagePack", "ParleyCBOR", "ParleyProtobuf"],
            swiftSettings: strictImports, plugins: [registration]),

        // Registration: a build-tool plugin and the generator it runs.
        .executableTarget(name: "ParleyRegistryGenerator", path: "Plugins/ParleyRegistryGenerator",
                          swiftSettings: strictImports),
        .plugin(name: "ParleyFormatRegistration", capability: .buildTool(),
                dependencies: ["ParleyRegistryGenerator"]),
        // Scaffolding: `swift package new-format`, a command plugin and the tool it runs.
        .executableTarget(name: "ParleyFormatScaffolder", dependencies: ["Parley"],
                          path: "Plugins/ParleyFormatScaffolder", swiftSettings: strictImports),
        .plugin(name: "NewFormat",
                capability: .command(
                    intent: .custom(
                        verb: "new-format",
                        description: "Creates a Parley format module, its tests and its Package.swift entries"),
                    permissions: [.writeToPackageDirectory(
                        reason: "Creates Sources/<Name> and Tests/<Name>Tests and adds them to Package.swift")]),
                dependencies: ["ParleyFormatScaffolder"]),

        // Tests mirror the modules.
        .testTarget(name: "ParleyTests", dependencies: ["Parley", "ParleyTestKit", httpTypes],
                    swiftSettings: strictImports),
        .testTarget(name: "ParleyHTTPTests",
                    dependencies: ["ParleyHTTP", "Parley", "ParleyTestKit", "ParleyJSON", "ParleyXML", httpTypes],
                    swiftSettings: strictImports),
        .testTarget(name: "ParleyJSONTests", dependencies: ["ParleyJSON", "Parley", "ParleyTestKit"],
                    swiftSettings: strictImports),
        .testTarget(name: "ParleyYAMLTests", dependencies: ["ParleyYAML", "ParleyJSON", "Parley", "ParleyTestKit"],
                    swiftSettings: strictImports),
        .testTarget(name: "ParleyPropertyListTests",
                    dependencies: ["ParleyPropertyList", "ParleyJSON", "Parley", "ParleyTestKit"],
                    swiftSettings: strictImports),
        .testTarget(name: "ParleyXMLTests", dependencies: ["ParleyXML", "Parley", "ParleyTestKit"],
                    swiftSettings: strictImports),
        .testTarget(name: "ParleyImageTests", dependencies: ["ParleyImage", "Parley", "ParleyTestKit"],
                    exclude: ["Pillow"], swiftSettings: strictImports),
        .testTarget(name: "ParleyCSVTests", dependencies: ["ParleyCSV", "Parley", "ParleyTestKit"],
                    swiftSettings: strictImports),
        .testTarget(name: "ParleyMessagePackTests",
                    dependencies: ["ParleyMessagePack", "ParleyJSON", "Parley", "ParleyTestKit"],
                    swiftSettings: strictImports),
        .testTarget(name: "ParleyCBORTests", dependencies: ["ParleyCBOR", "ParleyJSON", "Parley", "ParleyTestKit"],
                    exclude: ["Interop/cbor2_oracle.py"], swiftSettings: strictImports),
        .testTarget(name: "ParleySchemaTests",
                    dependencies: ["ParleySchema", "Parley", "ParleyJSON", "ParleyYAML", "ParleyXML", "ParleyTestKit",
                                   "ParleyCSV", "ParleyMessagePack"],
                    exclude: ["Suite/known-failures.txt"], swiftSettings: strictImports),
        .testTarget(name: "ParleyOpenAPITests",
                    dependencies: ["ParleyOpenAPI", "ParleySchema", "Parley", "ParleyJSON", "ParleyYAML",
                                   "ParleyMessagePack", "ParleyXML", "ParleyCSV", "ParleyCBOR", "ParleyHTTP",
                                   "ParleyCompression", httpTypes],
                    exclude: ["Interop/openapi_core_oracle.py"], swiftSettings: strictImports),
        .testTarget(name: "ParleyProtobufTests",
                    dependencies: ["ParleyProtobuf", "ParleyJSON", "Parley", "ParleyTestKit"],
                    exclude: ["Resources"], swiftSettings: strictImports),
        .testTarget(name: "ParleyCompressionTests",
                    dependencies: ["ParleyCompression", "ParleyHTTP", "Parley", "ParleyTestKit", "CParleyZstd",
                                   httpTypes],
                    exclude: ["Resources"], swiftSettings: strictImports),
        .testTarget(name: "ParleyFixturesTests",
                    dependencies: ["ParleyFixtures", "ParleyHTTP", "ParleyCompression", "ParleyClient", "Parley",
                                   "ParleyJSON", "ParleyYAML", "ParleyXML", "ParleyPropertyList", "ParleyImage",
                                   "ParleyCSV", "ParleyMessagePack", "ParleyTestKit", "ParleyOpenAPI", httpTypes],
                    swiftSettings: strictImports),
        .testTarget(name: "ParleyClientTests",
                    dependencies: ["ParleyClient", "ParleyHTTP", "ParleyCompression", "Parley", "ParleyJSON",
                                   "ParleyYAML"],
                    exclude: ["Resources"], swiftSettings: strictImports),
        // Links exactly two formats through the plugin, and checks it sees exactly those.
        .testTarget(name: "ParleyRegistrationTests", dependencies: ["Parley", "ParleyJSON", "ParleyYAML"],
                    swiftSettings: strictImports, plugins: [registration]),
        .testTarget(name: "ParleyCLITests",
                    dependencies: ["parley", "ParleyCLI", "ParleyFixtures", "ParleyHTTP", "ParleyClient"],
                    swiftSettings: strictImports),
        .testTarget(name: "ParleyFormatScaffolderTests", dependencies: ["ParleyFormatScaffolder"],
                    swiftSettings: strictImports),
        // The conformance kit against deliberately broken formats (JSON wrapped to break one rule each).
        .testTarget(name: "ParleyTestKitTests", dependencies: ["ParleyTestKit", "Parley", "ParleyJSON"],
                    swiftSettings: strictImports),
    ],
    swiftLanguageModes: [.v6]
)
