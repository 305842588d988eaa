import HTTPTypes
import ParleyHTTP
import Testing

@Suite struct FieldNameMatchingTests {
    static let names: [HTTPField.Name] = [
        .contentType, .contentLength, .accept, .acceptEncoding, .te, .vary, .cookie, .setCookie,
        HTTPField.Name("CONTENT-TYPE")!, HTTPField.Name("Content-Lengtx")!, HTTPField.Name("x-a")!,
        HTTPField.Name("x-b")!, HTTPField.Name("x-very-long-extension-field-name")!,
    ]

    /// `matches` says what `==` says of every pair: equal names in any case, names of the same
    /// length that differ, and names of different lengths.
    @Test func matchesIsEquality() {
        for first in Self.names {
            for second in Self.names {
                #expect(first.matches(second) == (first == second), "\(first) and \(second)")
            }
        }
        #expect(HTTPField.Name("CONTENT-TYPE")!.matches(.contentType))
        #expect(!HTTPField.Name("x-a")!.matches(HTTPField.Name("x-b")!))
    }
}
