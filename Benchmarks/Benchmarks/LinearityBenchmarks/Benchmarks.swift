import Benchmark
import LinearityWorkloads

// The hostile-input workloads of issue #22 (Shared/LinearityWorkloads), each at N and 4N: a
// linear parser costs about 4× more at 4N. Time and mallocs are reported here; instructions
// too where the machine has a hardware counter (not in most virtual machines). The gate
// (`make linearity-gate`, Gate/LinearityGate) counts instructions with callgrind when there
// is no hardware counter, and fails above 5×.

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal, .instructions],
                                                maxDuration: .seconds(1), maxIterations: 100)
    for workload in allWorkloads {
        for count in [workload.count, 4 * workload.count] {
            let call = workload.prepare(count)
            Benchmark("\(workload.name)-\(count)", configuration: configuration) { benchmark in
                for _ in benchmark.scaledIterations { try call() }
            }
        }
    }
}
