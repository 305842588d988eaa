import Parley
import ParleyHTTP

// The core's request decoders: forms (`application/x-www-form-urlencoded`), URL queries and
// multipart bodies.

let coreWorkloads: [Workload] = [
    // Form bodies through the format, as a server receives them.
    Workload("form.distinct-keys", unit: "keys", count: 500) { n in
        let body = Array(joined(n, separator: "&") { "key\($0)=value\($0)" }.utf8)
        return { keep(try FormURLEncodedFormat().decode(body)) }
    },
    Workload("form.repeated-key", unit: "pairs", count: 500) { n in
        let body = Array(joined(n, separator: "&") { "a=\($0)" }.utf8)
        return { keep(try FormURLEncodedFormat().decode(body)) }
    },
    Workload("form.indexed-keys", unit: "keys", count: 500) { n in
        let body = Array(joined(n, separator: "&") { "a%5B\($0)%5D=\($0)" }.utf8)
        return { keep(try FormURLEncodedFormat().decode(body)) }
    },
    Workload("form.nested-keys", unit: "keys", count: 500) { n in
        let body = Array(joined(n, separator: "&") { "user[field\($0)]=\($0)" }.utf8)
        return { keep(try FormURLEncodedFormat().decode(body)) }
    },

    // Queries as strings, with the other nesting rule and comma lists.
    Workload("query.indexed-keys", unit: "keys", count: 500) { n in
        let query = "?" + joined(n, separator: "&") { "a[\($0)]=\($0)" }
        return { keep(try FormDecoder().decode(query)) }
    },
    Workload("query.dotted-keys", unit: "keys", count: 500) { n in
        let query = "?" + joined(n, separator: "&") { "filter.field\($0)=\($0)" }
        return { keep(try FormDecoder(nesting: .dotted).decode(query)) }
    },
    Workload("query.comma-list", unit: "elements", count: 500) { n in
        let query = "ids=" + joined(n, separator: ",") { "\($0)" }
        return { keep(try FormDecoder(splitsCommas: true).decode(query)) }
    },

    // Multipart: many small parts, and one part full of lines that almost are boundaries.
    Workload("multipart.parts", unit: "parts", count: 500) { n in
        let parts = joined(n) { index in
            "--BOUNDARY\r\nContent-Disposition: form-data; name=\"field\(index)\"\r\n\r\nvalue \(index)\r\n"
        }
        let body = Array((parts + "--BOUNDARY--\r\n").utf8)
        let decoder = MultipartDecoder(limits: .init(maxParts: 1_000_000))
        return { keep(try decoder.decode(body, boundary: "BOUNDARY")) }
    },
    Workload("multipart.near-boundaries", unit: "lines", count: 500) { n in
        let body = Array(("--BOUNDARY\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n"
            + joined(n) { "\r\n--BOUNDAR\($0 % 10)" } + "\r\n--BOUNDARY--\r\n").utf8)
        return { keep(try MultipartDecoder().decode(body, boundary: "BOUNDARY")) }
    },

    // A Content-Type with thousands of distinct parameters (the repeated-name check, RFC 6838 §4.3).
    Workload("media-type.many-parameters", unit: "parameters", count: 2_000) { n in
        let text = "application/json" + joined(n) { ";p\($0)=v" }
        return { keep(try? MediaType(parsing: text)) }
    },
]
