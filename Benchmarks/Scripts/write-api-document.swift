// Writes the benchmarks' 1 MB API JSON document (BenchmarkInputs.makeAPIDocument(size: 1 << 20, seed: 1),
// the bytes JSONBenchmarks and CompressionBenchmarks use) to the path given as the only argument.
// Compiled with Shared/BenchmarkInputs/BenchmarkInputs.swift by compare-compression-tools.sh.
import Foundation

let document = makeAPIDocument(size: 1 << 20, seed: 1)
_ = FileManager.default.createFile(atPath: CommandLine.arguments[1], contents: Data(document))
