import Foundation
import KeyValue
import Parley
import ParleyHTTP
import ParleyJSON
import Testing

/// The whole loop from the outside: the plugin registered KeyValue next to JSON, an `Accept`
/// negotiates it, a received body decodes by its `Content-Type`, and it transcodes to JSON.
@Suite struct RegistrationTests {
    @Test func thePluginRegisteredExactlyTheLinkedFormats() {
        #expect(Registry.linkedFormatModules == ["ParleyJSON", "KeyValue"])
        #expect(Registry.linked.formats.map(\.name) == ["json", "kv", "text", "form", "raw"])
    }

    @Test(arguments: [
        ("application/vnd.example.kv", "kv"),
        ("application/vnd.example.kv;q=0.9, application/json;q=0.5", "kv"),
        ("application/json, application/vnd.example.kv;q=0.8", "json"),
        ("text/html, application/*;q=0.1", "json"),
        ("application/vnd.example.kv;q=0, */*;q=0.1", "json"),
    ])
    func anAcceptNegotiatesTheFormat(accept: String, expected: String) throws {
        let reply = try ParleyServer(registry: Registry.linked).reply(with: ["name": "Ada"], accepting: accept)
        #expect(reply.formatName == expected)
        if expected == "kv" {
            #expect(reply.contentType.description == "application/vnd.example.kv; charset=utf-8")
            #expect(reply.body == Array("name=Ada\n".utf8))
        }
    }

    @Test func nothingAcceptableIsA406ListingWhatIs() {
        let server = ParleyServer(registry: Registry.linked)
        #expect { try server.reply(with: ["a": "1"], accepting: "application/vnd.example.kv;q=0") } throws: {
            ($0 as? ParleyError)?.code == .notAcceptable && "\($0)".contains("application/vnd.example.kv")
        }
    }

    /// What `parley check` does for each recorded response: pick the decoder by Content-Type,
    /// decode within its limits, report the failure with its location.
    @Test func aReceivedBodyDecodesByItsContentType() throws {
        let sample = try Data(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().appendingPathComponent("../../Samples/person.kv"))
        let match = try #require(Registry.linked.decoder(forContentType: "application/vnd.example.kv; charset=utf-8"))
        #expect(match.format.name == "kv")
        #expect(match.rank == .exact)
        let value = try match.decode(sample, contentType: "application/vnd.example.kv")
        #expect(value["name"] == "Ada Lovelace")
        #expect(value["note"] == "first line\nsecond line")
        #expect(value["formula"] == "a=b")
        do {
            _ = try Registry.linked.decode(Array("broken line".utf8), contentType: "application/vnd.example.kv")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .decodingFailed)
            #expect("\(error)".contains("line 1"))
        }
    }

    @Test func transcodesToJSONAndBack() throws {
        let body = Array("name=Ada\nborn=1815\nnote=a\\nb\n".utf8)
        let value = try Registry.linked.decode(body, contentType: "application/vnd.example.kv")
        let json = try JSONFormat(options: .init(sortsKeys: false)).encode(value)
        #expect(String(decoding: json, as: UTF8.self) == #"{"name":"Ada","born":"1815","note":"a\nb"}"#)
        let back = try KeyValueFormat().encode(try JSONFormat().decode(json))
        #expect(back == body)
    }

    @Test func codableWorksThroughTheValueTree() throws {
        struct Person: Codable, Equatable { var name: String; var born: String }
        let person = try Registry.linked.decode(Person.self, from: Array("name=Ada\nborn=1815\n".utf8),
                                                contentType: "application/vnd.example.kv")
        #expect(person == Person(name: "Ada", born: "1815"))
        let reply = try ParleyServer(registry: Registry.linked)
            .reply(encoding: person, accepting: "application/vnd.example.kv")
        #expect(reply.body == Array("name=Ada\nborn=1815\n".utf8))
    }
}
