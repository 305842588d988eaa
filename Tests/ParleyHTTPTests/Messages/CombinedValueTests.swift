import HTTPTypes
import ParleyHTTP
import Testing

@Suite struct CombinedValueTests {
    /// Field lists covering no field, one, repeated ones apart and together, names differing in
    /// case, empty values and Cookie.
    static let lists: [HTTPFields] = [
        [:],
        [.contentType: "application/json"],
        [.contentType: "application/json; charset=utf-8", .contentLength: "12"],
        HTTPFields([HTTPField(name: .accept, value: "text/html"), HTTPField(name: .contentLength, value: "3"),
                    HTTPField(name: .accept, value: "application/json;q=0.5"),
                    HTTPField(name: HTTPField.Name("ACCEPT")!, value: "")]),
        HTTPFields([HTTPField(name: .cookie, value: "a=1"), HTTPField(name: .cookie, value: "b=2")]),
    ]

    @Test(arguments: lists)
    func readsWhatTheSubscriptReads(fields: HTTPFields) {
        for name in [HTTPField.Name.contentType, .contentLength, .accept, .cookie, .vary] {
            #expect(fields.combinedValue(of: name) == fields[name], "\(name) in \(fields)")
        }
    }

    @Test func repeatedFieldsJoinInOrder() {
        let fields = HTTPFields([HTTPField(name: .vary, value: "Accept"), HTTPField(name: .date, value: "x"),
                                 HTTPField(name: .vary, value: "Accept-Encoding")])
        #expect(fields.combinedValue(of: .vary) == "Accept, Accept-Encoding")
        #expect(fields.combinedValue(of: .contentType) == nil)
    }
}
