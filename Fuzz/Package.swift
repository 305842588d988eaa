// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for every parser that reads untrusted bytes. Build and run (TOOLCHAIN.md §3):
//   swift build --scratch-path .build-fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
//   SWIFT_BACKTRACE=enable=no .build-fuzz/debug/FuzzAccept -max_total_time=20
// `make fuzz` at the top level runs each target for a short while.
let package = Package(
    name: "parley-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "parley", path: ".."),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "Parley", package: "parley"), .product(name: "ParleyImage", package: "parley")]),
        .executableTarget(name: "FuzzMediaType", dependencies: [.product(name: "Parley", package: "parley")]),
        .executableTarget(name: "FuzzAccept", dependencies: [.product(name: "Parley", package: "parley")]),
        .executableTarget(name: "FuzzJSON", dependencies: ["FuzzSupport", .product(name: "Parley", package: "parley"), .product(name: "ParleyJSON", package: "parley")]),
        .executableTarget(name: "FuzzYAML", dependencies: ["FuzzSupport", .product(name: "Parley", package: "parley"), .product(name: "ParleyYAML", package: "parley")]),
        .executableTarget(name: "FuzzPropertyList", dependencies: ["FuzzSupport", .product(name: "Parley", package: "parley"), .product(name: "ParleyPropertyList", package: "parley")]),
        .executableTarget(name: "FuzzXML", dependencies: ["FuzzSupport", .product(name: "Parley", package: "parley"), .product(name: "ParleyXML", package: "parley")]),
        .executableTarget(name: "FuzzRecording", dependencies: [.product(name: "Parley", package: "parley"), .product(name: "ParleyFixtures", package: "parley")]),
        .executableTarget(name: "FuzzMessagePack", dependencies: ["FuzzSupport", .product(name: "Parley", package: "parley"), .product(name: "ParleyMessagePack", package: "parley")]),
        .executableTarget(name: "FuzzCBOR", dependencies: ["FuzzSupport", .product(name: "Parley", package: "parley"), .product(name: "ParleyCBOR", package: "parley")]),
        .executableTarget(name: "FuzzSchema", dependencies: [.product(name: "Parley", package: "parley"), .product(name: "ParleyJSON", package: "parley"),
                                                           .product(name: "ParleySchema", package: "parley")]),
        .executableTarget(name: "FuzzProtobuf", dependencies: ["FuzzSupport", .product(name: "Parley", package: "parley"), .product(name: "ParleyProtobuf", package: "parley")]),
        .executableTarget(name: "FuzzCSV", dependencies: [.product(name: "Parley", package: "parley"), .product(name: "ParleyCSV", package: "parley")]),
        .executableTarget(name: "FuzzImage", dependencies: ["FuzzSupport", .product(name: "ParleyImage", package: "parley")]),
        .executableTarget(name: "FuzzPipeline", dependencies: [
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Parley", package: "parley"), .product(name: "ParleyCompression", package: "parley"),
            .product(name: "ParleyJSON", package: "parley"), .product(name: "ParleyYAML", package: "parley"),
            .product(name: "ParleyXML", package: "parley"), .product(name: "ParleyPropertyList", package: "parley"),
            .product(name: "ParleyImage", package: "parley"), .product(name: "ParleyCSV", package: "parley"),
            .product(name: "ParleyMessagePack", package: "parley"), .product(name: "ParleyCBOR", package: "parley"),
        ]),
        .executableTarget(name: "FuzzBrotli", dependencies: [.product(name: "ParleyCompression", package: "parley")]),
        .executableTarget(name: "FuzzZstd", dependencies: [.product(name: "ParleyCompression", package: "parley")]),
        .executableTarget(name: "FuzzMultipart", dependencies: [.product(name: "Parley", package: "parley"), .product(name: "ParleyHTTP", package: "parley")]),
        .executableTarget(name: "FuzzImagePNG", dependencies: ["FuzzSupport", .product(name: "ParleyImage", package: "parley")]),
        .executableTarget(name: "FuzzImageJPEG", dependencies: ["FuzzSupport", .product(name: "ParleyImage", package: "parley")]),
        .executableTarget(name: "FuzzImageGIF", dependencies: ["FuzzSupport", .product(name: "ParleyImage", package: "parley")]),
        .executableTarget(name: "FuzzImageWebP", dependencies: ["FuzzSupport", .product(name: "ParleyImage", package: "parley")]),
        .executableTarget(name: "FuzzImageTIFF", dependencies: ["FuzzSupport", .product(name: "ParleyImage", package: "parley")]),
        .executableTarget(name: "FuzzImageBMP", dependencies: ["FuzzSupport", .product(name: "ParleyImage", package: "parley")]),
        .executableTarget(name: "FuzzImageICO", dependencies: ["FuzzSupport", .product(name: "ParleyImage", package: "parley")]),
        .executableTarget(name: "FuzzRawHTTP", dependencies: [.product(name: "Parley", package: "parley"), .product(name: "ParleyFixtures", package: "parley")]),
        .executableTarget(name: "FuzzFormQuery", dependencies: [.product(name: "Parley", package: "parley")]),
        .executableTarget(name: "FuzzPattern", dependencies: [.product(name: "ParleySchema", package: "parley")]),
        .executableTarget(name: "FuzzSnapshot", dependencies: ["FuzzSupport", .product(name: "Parley", package: "parley"), .product(name: "ParleyFixtures", package: "parley"), .product(name: "ParleyJSON", package: "parley")]),
    ],
    swiftLanguageModes: [.v6]
)
