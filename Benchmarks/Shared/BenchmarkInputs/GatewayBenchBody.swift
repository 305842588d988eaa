// The JSON body `make gateway-bench` serves (Scripts/gateway-common.sh, gw_make_bodies), byte for
// byte, so a gated path on it predicts what the gateway's load test measures.

/// One record of ``makeGatewayBenchBody(size:)``, as Python's `json.dumps` with compact separators writes it.
private func gatewayBenchRecord(_ i: Int) -> String {
    let tags = ["alpha", "beta", "gamma"].prefix(i % 3 + 1).map { "\"\($0)\"" }.joined(separator: ",")
    let score = Double(i) * 1.25 + 0.5   // a multiple of 0.25: Python's round(…, 2) leaves it as is
    let zip = String(i * 7919 % 100_000)
    let paddedZip = String(repeating: "0", count: 5 - zip.count) + zip
    return #"{"id":\#(i),"name":"user \#(i)","email":"user\#(i)@example.com","active":\#(i % 3 != 0),"#
        + #""score":\#(score),"tags":[\#(tags)],"address":{"city":"City \#(i % 97)","zip":"\#(paddedZip)"}}"#
}

/// The gateway load test's body of exactly `size` bytes: `{"items":[records],"note":"xxx…"}`, as
/// many records as fit, the note padding to `size`. Small records, few escapes, many numbers.
public func makeGatewayBenchBody(size: Int) -> [UInt8] {
    var records: [String] = []
    var length = #"{"items":[],"note":""}"#.utf8.count
    while true {
        let record = gatewayBenchRecord(records.count)
        let more = record.utf8.count + (records.isEmpty ? 0 : 1)
        if length + more > size { break }
        records.append(record)
        length += more
    }
    let text = #"{"items":["# + records.joined(separator: ",") + #"],"note":""#
        + String(repeating: "x", count: size - length) + #""}"#
    return Array(text.utf8)
}
