import CStandardStreams
import Dispatch
public import Foundation
import Parley
import ParleyCLI
import ParleyCSV
import ParleyImage
import ParleyJSON
import ParleyMessagePack
import ParleyPropertyList
import ParleyXML
import ParleyYAML

// The command-line paths, run in-process through ParleyCommand (the code the `parley` executable
// runs, with the formats it links), standard input from a file and standard output discarded.
// In-process because Valgrind 3.19 (Debian 12) crashes when an async Swift `main` parks its main
// thread in dispatch_main, as the `parley` executable does; the instructions counted are the
// command's own, without process start-up.

/// The formats the `parley` executable links.
let parleyRegistry = Registry(formats: [JSONFormat(), YAMLFormat(), XMLFormat(), PropertyListFormat(), ImageFormat(),
                                        CSVFormat(), MessagePackFormat()] + Registry.builtInFormats)

/// Runs `parley arguments` in this process with `input` as standard input and standard output
/// sent to /dev/null; waits for it (async commands run on the global executor).
func runParley(_ arguments: [String], input: String?) {
    fflush(nil)
    let savedOutput = dup(STDOUT_FILENO)
    let null = open("/dev/null", O_WRONLY)
    dup2(null, STDOUT_FILENO)
    close(null)
    if let input { precondition(standard_input_reopen(input) == 0, "cannot read \(input)") }
    let done = DispatchSemaphore(value: 0)
    Task {
        await ParleyCommand.main(registry: parleyRegistry, arguments: arguments)
        done.signal()
    }
    done.wait()
    fflush(nil)
    dup2(savedOutput, STDOUT_FILENO)
    close(savedOutput)
}

/// The batch modes' input: `count` JSON lines for `mode` (`negotiate`: the client headers against
/// the API's offers, in turn; `media-type`: eight media types; `match`: six content types against
/// four registered types). PerfGate and `make bench`'s report run the same lines.
public func batchInput(_ mode: String, lines count: Int) -> String {
    switch mode {
    case "negotiate":
        let offers = apiOffers.map { "\"\($0)\"" }.joined(separator: ",")
        return (0..<count).map { index in
            "{\"accept\":\"\(clientAcceptHeaders[index % clientAcceptHeaders.count].accept)\",\"offers\":[\(offers)]}\n"
        }.joined()
    case "media-type":
        let mediaTypes = [
            "application/vnd.api+json; charset=utf-8", "text/html;charset=\\\"utf-8\\\"", "application/json",
            "multipart/form-data; boundary=----form%d", "text/plain; format=flowed; delsp=yes",
            "application/problem+json", "image/svg+xml", "application/x-www-form-urlencoded; charset=UTF-8",
        ]
        return (0..<count).map { index in
            let mediaType = mediaTypes[index % mediaTypes.count].replacingOccurrences(of: "%d", with: String(index))
            return "{\"value\":\"\(mediaType)\"}\n"
        }.joined()
    case "match":
        let contentTypes = ["application/json; charset=utf-8", "application/problem+json", "text/csv",
                            "application/xml", "image/png", "application/yaml"]
        return (0..<count).map { index in
            "{\"content_type\":\"\(contentTypes[index % contentTypes.count])\","
                + "\"registered\":[\"application/json\",\"application/*+json\",\"application/xml\",\"text/*\"]}\n"
        }.joined()
    default:
        preconditionFailure("no batch mode \(mode)")
    }
}

/// The batch modes `batchInput` writes lines for.
public let batchModes = ["negotiate", "media-type", "match"]

/// Writes the command-line paths' inputs into `folder`: 2,000 lines for each batch mode and a
/// small generated corpus of recordings (HAR, VCR cassettes, raw HTTP; JSON, XML, YAML and gzip
/// bodies; a fixed seed) with the OpenAPI document it matches. PerfGate runs it before the measured
/// process starts (Foundation's `Process` does not work under Valgrind).
public func prepareCommandLineInputs(in folder: URL) throws {
    for mode in batchModes {
        try Data(batchInput(mode, lines: 2_000).utf8).write(to: folder.appendingPathComponent("\(mode)-batch.jsonl"))
    }

    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Scripts/make-recorded-corpus.py").standardized.path
    let generate = Process()
    generate.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    generate.arguments = ["python3", script, folder.appendingPathComponent("corpus").path,
                          "--files", "40", "--megabytes", "4",
                          "--openapi", folder.appendingPathComponent("corpus-openapi.json").path]
    generate.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    try generate.run()
    generate.waitUntilExit()
    guard generate.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
}

let commandLinePaths: [GatedPath] = batchModes.map { mode in
    GatedPath("CLI.\(mode)-batch-2000-lines", iterations: 2_000) { inputs in
        let batch = inputs.appendingPathComponent("\(mode)-batch.jsonl").path
        return { runParley([mode, "--batch"], input: batch) }
    }
} + [
    // One job: the count is the work, whatever the scheduling (with a task group it varied by 8%).
    GatedPath("CLI.check-generated-corpus-40-files") { inputs in
        let corpus = inputs.appendingPathComponent("corpus").path
        return { runParley(["check", corpus, "--report", "json", "--output", "/dev/null", "--jobs", "1"], input: nil) }
    },
    // The same check against the corpus's OpenAPI document (#35: its cost beside the row above is
    // the contract check's). The raw HTTP recordings hold no request, hence the severity.
    GatedPath("CLI.check-generated-corpus-openapi") { inputs in
        let corpus = inputs.appendingPathComponent("corpus").path
        let document = inputs.appendingPathComponent("corpus-openapi.json").path
        return {
            runParley(["check", corpus, "--report", "json", "--output", "/dev/null", "--jobs", "1",
                       "--openapi", document, "--severity", "contract-no-operation=note"], input: nil)
        }
    },
]
