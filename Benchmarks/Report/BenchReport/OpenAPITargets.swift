import ParleyOpenAPI
import PerfWorkloads

// Contract checking (issue #35): a matched exchange checked whole (operation lookup, parameters,
// headers, body) against PerfWorkloads' shop document, the GET and POST the instruction gate
// counts too; and the operation lookup alone in generated documents, to show it grows with the
// path's segments, not the document's paths.

func openAPITargets(runs: Int, clock: Clock) throws -> [TargetRow] {
    let checker = try makeShopChecker()
    for (request, response) in [openAPIGetExchange, openAPIPostExchange] {
        let findings = checker.check(request: request, response: response)
        guard findings.isEmpty else {
            throw ReportError("the benchmark exchange has findings: \(findings.map(\.message))")
        }
    }
    let calls = 10_000
    let routes = try [(10, 3), (1_000, 3), (1_000, 8)].map { paths, segments in
        try makeRoutingDocument(paths: paths, segments: segments)
    }
    for (document, path) in routes where document.operation(method: "GET", path: path)?.operation == nil {
        throw ReportError("\(path) matches no operation of its generated document")
    }
    func perCall(_ timing: Timing) -> Timing { Timing(runs: timing.runs.map { $0 / Double(calls) }) }
    let checks: [() throws -> Void] = [openAPIGetExchange, openAPIPostExchange].map { exchange in
        { for _ in 0..<calls { consume(checker.check(request: exchange.request, response: exchange.response)) } }
    }
    let exchanges = try timeInterleaved(runs: runs, clock: clock, checks).map(perCall)
    let lookups = try timeInterleaved(runs: runs, clock: clock, routes.map { document, path in
        { for _ in 0..<calls { consume(document.operation(method: "GET", path: path)) } }
    }).map(perCall)
    return [
        TargetRow(path: "OpenAPI check, GET with 2 parameters and a 1 KB JSON 200, an exchange",
                  parley: formatTiming(exchanges[0]), anchor: "", figure: exchanges[0].p50,
                  figureOnBest: exchanges[0].best, goal: .timeAtMost(5e-6)),
        TargetRow(path: "OpenAPI check, POST with a 1 KB JSON request body, an exchange",
                  parley: formatTiming(exchanges[1]), anchor: "", figure: exchanges[1].p50,
                  figureOnBest: exchanges[1].best, goal: .timeAtMost(15e-6)),
        speedRow("OpenAPI operation lookup, 1,000 paths vs 10 paths, 3 segments (within 1.5×)", parley: lookups[1],
                 anchor: lookups[0], anchorName: "10 paths", goal: .speedAtLeast(1 / 1.5)),
        speedRow("OpenAPI operation lookup, 1,000 paths: 8 segments vs 3 (context: grows with segments)",
                 parley: lookups[2], anchor: lookups[1], anchorName: "3 segments", goal: .none),
    ]
}
