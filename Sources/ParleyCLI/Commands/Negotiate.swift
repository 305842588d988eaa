import ArgumentParser
import Parley

struct Negotiate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Choose the offer an Accept field prefers.",
        discussion: """
        Prints the chosen offer exactly as given, or exits 3 when none is acceptable.
        Without --accept the request had no Accept field: the first offer wins.

        Examples:
          parley negotiate --accept 'application/yaml, application/json;q=0.9' application/json application/yaml
          echo '{"accept": "text/*", "offers": ["application/json", "text/csv"]}' | parley negotiate --batch
        """)

    @Option(help: "The Accept field value (omit for a request without one).")
    var accept: String?

    @Flag(help: "Read {\"accept\": string|null, \"offers\": [...]} lines; write {\"choice\": string|null} lines.")
    var batch = false

    @Argument(help: "The offers, most preferred first.")
    var offers: [String] = []

    func validate() throws {
        if !batch && offers.isEmpty { throw ValidationError("give at least one offer") }
    }

    func run() throws {
        if batch {
            forEachBatchLine { line in
                do {
                    let object = try JSONText.object(line)
                    let offers = try JSONText.strings(object["offers"]) ?? []
                    let choice = try Self.choose(accept: object["accept"] as? String, offers: offers)
                    return "{\"choice\": \(JSONText.quote(choice))}"
                } catch {
                    return "{\"error\": \(JSONText.quote("\(error)"))}"
                }
            }
            return
        }
        guard let choice = try Self.choose(accept: accept, offers: offers) else {
            printError("nothing acceptable for Accept '\(accept ?? "")'")
            throw ExitCode.notAcceptable
        }
        print(choice)
    }

    /// The offer (as given) that `accept` prefers.
    static func choose(accept: String?, offers: [String]) throws -> String? {
        var parsed: [MediaType] = []
        for offer in offers {
            do { parsed.append(try MediaType(parsing: offer)) } catch {
                throw ValidationError("invalid offer '\(offer)': \(error)")
            }
        }
        let negotiator = AcceptNegotiator(offers: parsed)
        return negotiator.preferredOfferIndex(forAccept: accept).map { offers[$0] }
    }
}
