// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so the root `swift build` and `swift test` stay light.
// Run: `cd Benchmarks && swift package benchmark --no-progress` (or `--target <Suite>`).

/// Imports are internal unless a file says `public import`, and a member is visible only where its module is
/// imported (as the root package builds).
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

@MainActor
func suite(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name,
                      dependencies: dependencies
                          + ["BenchmarkInputs", .product(name: "Benchmark", package: "benchmark")],
                      path: "Benchmarks/\(name)",
                      swiftSettings: strictImports,
                      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
}

@MainActor
func parley(_ product: String) -> Target.Dependency {
    .product(name: product, package: "parley")
}

let package = Package(
    name: "parley-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "parley", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
        // The generated-code protobuf anchor: the library only, as parley uses it (never the build plugin).
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0", traits: []),
        // The response pipeline's heads (the gateway's transcode path of PerfWorkloads).
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
    ],
    targets: [
        suite("NegotiationBenchmarks", ["PerfWorkloads", parley("Parley")]),
        suite("JSONBenchmarks", ["PerfWorkloads", parley("Parley"), parley("ParleyJSON"), "CBaselineSimdjson"]),
        suite("YAMLBenchmarks", ["PerfWorkloads", parley("Parley"), parley("ParleyYAML"), "CBaselineYAML"]),
        suite("PropertyListBenchmarks", ["PerfWorkloads", parley("Parley"), parley("ParleyPropertyList")]),
        suite("XMLBenchmarks", ["PerfWorkloads", parley("Parley"), parley("ParleyXML"), "CBaselineXML"]),
        suite("ImageBenchmarks", [parley("Parley"), parley("ParleyImage"), "CBaselineImage"]),
        suite("ClientBenchmarks", [parley("Parley"), parley("ParleyHTTP"), parley("ParleyClient")]),
        suite("FormatAuthoringBenchmarks",
              [parley("Parley"), parley("ParleyJSON"), parley("ParleyCSV"), parley("ParleyMessagePack")]),
        suite("FixturesBenchmarks", [parley("Parley"), parley("ParleyFixtures")]),
        suite("LinearityBenchmarks", ["LinearityWorkloads"]),
        suite("CompressionBenchmarks", [parley("ParleyCompression")]),
        suite("SchemaBenchmarks", ["PerfWorkloads", parley("Parley"), parley("ParleyJSON"), parley("ParleySchema")]),

        // The linearity gate (`make linearity-gate`): instructions at N and 4N for every workload.
        .executableTarget(name: "LinearityGate", dependencies: ["LinearityWorkloads", "InstructionCounting"],
                          path: "Gate/LinearityGate", swiftSettings: strictImports),
        // The instruction gate (`make perf-gate`): each gated path's instructions against the
        // committed counts in Thresholds/instructions.json.
        .executableTarget(name: "PerfGate", dependencies: ["PerfWorkloads", "InstructionCounting"],
                          path: "Gate/PerfGate", swiftSettings: strictImports),

        // `make bench`'s summary: every target of issue #19 with its ratio, timed pair by pair in
        // one process, and memory per decoded byte from child processes.
        .executableTarget(name: "BenchReport",
                          dependencies: ["PerfWorkloads", "BenchmarkInputs", parley("Parley"), parley("ParleyJSON"),
                                         parley("ParleyXML"), parley("ParleyYAML"), parley("ParleyCBOR"),
                                         parley("ParleyMessagePack"), parley("ParleySchema"), parley("ParleyProtobuf"),
                                         parley("ParleyOpenAPI"), "GeneratedProtobuf", "CBaselineSimdjson",
                                         "CBaselineXML", "CBaselineYAML", "CProcessMemory",
                                         .product(name: "SwiftProtobuf", package: "swift-protobuf")],
                          path: "Report/BenchReport", swiftSettings: strictImports),

        // Deterministic inputs shared by the suites.
        .target(name: "BenchmarkInputs", path: "Shared/BenchmarkInputs", swiftSettings: strictImports),
        // Hostile inputs at a given size for every parser and decoder (issue #22).
        .target(name: "LinearityWorkloads",
                dependencies: ["BenchmarkInputs", parley("Parley"), parley("ParleyJSON"), parley("ParleyYAML"),
                               parley("ParleyXML"), parley("ParleyPropertyList"), parley("ParleyCSV"),
                               parley("ParleyMessagePack"), parley("ParleyCBOR"), parley("ParleyImage"),
                               parley("ParleyFixtures"), parley("ParleySchema"), parley("ParleyHTTP")],
                path: "Shared/LinearityWorkloads", swiftSettings: strictImports),
        // The paths the instruction gate counts, with the inputs the suites measure them on.
        .target(name: "PerfWorkloads",
                dependencies: ["BenchmarkInputs", parley("Parley"), parley("ParleyJSON"), parley("ParleyYAML"),
                               parley("ParleyXML"), parley("ParleyPropertyList"), parley("ParleyImage"),
                               parley("ParleyCSV"), parley("ParleyMessagePack"), parley("ParleyCBOR"),
                               parley("ParleyCLI"), parley("ParleySchema"), parley("ParleyOpenAPI"),
                               parley("ParleyProtobuf"), parley("ParleyHTTP"), parley("ParleyCompression"),
                               .product(name: "HTTPTypes", package: "swift-http-types"), "CStandardStreams"],
                path: "Shared/PerfWorkloads", swiftSettings: strictImports),
        .target(name: "CStandardStreams", path: "Shared/CStandardStreams"),
        // swift-protobuf's generated code for Tests/ParleyProtobufTests/Resources/oracle_test.proto,
        // generated once and committed (see Shared/GeneratedProtobuf/README.md). Built as protoc-gen-swift
        // writes it, without strict imports: its public messages name SwiftProtobuf's types.
        .target(name: "GeneratedProtobuf", dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")],
                path: "Shared/GeneratedProtobuf", exclude: ["README.md"]),
        .target(name: "CProcessMemory", path: "Shared/CProcessMemory"),
        // Instruction counts: perf_event_open where there is a hardware counter, else callgrind.
        .target(name: "InstructionCounting", dependencies: ["CInstructionCounter"], path: "Shared/InstructionCounting",
                swiftSettings: strictImports),
        .target(name: "CInstructionCounter", path: "Shared/CInstructionCounter"),

        // Baselines in plain C: what a user calling the C library directly gets.
        .target(name: "CBaselineYAML", path: "Baselines/CBaselineYAML", linkerSettings: [.linkedLibrary("yaml")]),
        .target(name: "CBaselineXML", path: "Baselines/CBaselineXML",
                cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])], linkerSettings: [.linkedLibrary("xml2")]),
        .target(name: "CBaselineImage", path: "Baselines/CBaselineImage",
                linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]),
        // C++: simdjson's DOM API (Debian's libsimdjson-dev) behind one C function.
        .target(name: "CBaselineSimdjson", path: "Baselines/CBaselineSimdjson",
                linkerSettings: [.linkedLibrary("simdjson")]),
    ],
    swiftLanguageModes: [.v6]
)
