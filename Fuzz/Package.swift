// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for every parser that reads untrusted bytes. Build and run (TOOLCHAIN.md §3):
//   swift build --scratch-path .build-fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
//   SWIFT_BACKTRACE=enable=no .build-fuzz/debug/FuzzAccept -max_total_time=20
// `make fuzz` at the top level runs each target for a short while.

/// Imports are internal unless a file says `public import`, and a member is visible only where its module is
/// imported (as the root package builds).
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

@MainActor
func parley(_ product: String) -> Target.Dependency {
    .product(name: product, package: "parley")
}

/// A fuzz target: `Sources/<name>`, built as an executable libFuzzer drives.
@MainActor
func fuzzer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: dependencies, swiftSettings: strictImports)
}

let package = Package(
    name: "parley-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "parley", path: ".."),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
    ],
    targets: [
        .target(name: "FuzzSupport",
                dependencies: [parley("Parley"), parley("ParleyHTTP"), parley("ParleyImage"),
                               parley("ParleyCompression")],
                swiftSettings: strictImports),
        fuzzer("FuzzMediaType", [parley("Parley")]),
        fuzzer("FuzzAccept", [parley("Parley")]),
        fuzzer("FuzzJSON", ["FuzzSupport", parley("Parley"), parley("ParleyJSON")]),
        fuzzer("FuzzYAML", ["FuzzSupport", parley("Parley"), parley("ParleyYAML")]),
        fuzzer("FuzzPropertyList", ["FuzzSupport", parley("Parley"), parley("ParleyPropertyList")]),
        fuzzer("FuzzXML", ["FuzzSupport", parley("Parley"), parley("ParleyXML")]),
        fuzzer("FuzzRecording", [parley("Parley"), parley("ParleyFixtures")]),
        fuzzer("FuzzMessagePack", ["FuzzSupport", parley("Parley"), parley("ParleyMessagePack")]),
        fuzzer("FuzzCBOR", ["FuzzSupport", parley("Parley"), parley("ParleyCBOR")]),
        fuzzer("FuzzSchema", [parley("Parley"), parley("ParleyJSON"), parley("ParleySchema")]),
        fuzzer("FuzzProtobuf", ["FuzzSupport", parley("Parley"), parley("ParleyProtobuf")]),
        fuzzer("FuzzCSV", [parley("Parley"), parley("ParleyCSV")]),
        fuzzer("FuzzImage", ["FuzzSupport", parley("ParleyImage")]),
        fuzzer("FuzzPipeline", [
            .product(name: "HTTPTypes", package: "swift-http-types"),
            parley("Parley"), parley("ParleyHTTP"), parley("ParleyCompression"), parley("ParleyJSON"),
            parley("ParleyYAML"), parley("ParleyXML"), parley("ParleyPropertyList"), parley("ParleyImage"),
            parley("ParleyCSV"), parley("ParleyMessagePack"), parley("ParleyCBOR"),
        ]),
        fuzzer("FuzzBrotli", ["FuzzSupport", parley("ParleyCompression")]),
        fuzzer("FuzzZstd", ["FuzzSupport", parley("ParleyCompression")]),
        fuzzer("FuzzMultipart", [parley("Parley"), parley("ParleyHTTP")]),
        fuzzer("FuzzImagePNG", ["FuzzSupport", parley("ParleyImage")]),
        fuzzer("FuzzImageJPEG", ["FuzzSupport", parley("ParleyImage")]),
        fuzzer("FuzzImageGIF", ["FuzzSupport", parley("ParleyImage")]),
        fuzzer("FuzzImageWebP", ["FuzzSupport", parley("ParleyImage")]),
        fuzzer("FuzzImageTIFF", ["FuzzSupport", parley("ParleyImage")]),
        fuzzer("FuzzImageBMP", ["FuzzSupport", parley("ParleyImage")]),
        fuzzer("FuzzImageICO", ["FuzzSupport", parley("ParleyImage")]),
        fuzzer("FuzzRawHTTP", [parley("Parley"), parley("ParleyFixtures")]),
        fuzzer("FuzzFormQuery", [parley("Parley")]),
        fuzzer("FuzzPattern", ["FuzzSupport", parley("ParleySchema")]),
        fuzzer("FuzzSnapshot", ["FuzzSupport", parley("Parley"), parley("ParleyFixtures"), parley("ParleyJSON")]),
    ],
    swiftLanguageModes: [.v6]
)
