import HTTPTypes
import Parley
import ParleyHTTP

extension ContractChecker {
    /// A request body with its `Content-Encoding` undone by ``contentCodingStep`` (bounded by the
    /// body limit of the format its `Content-Type` names), or (`finding`) why it could not be:
    /// a coding no content coding of the step undoes is ``ContractFinding/Kind/unchecked``,
    /// corrupt or oversized data is ``ContractFinding/Kind/request``.
    func undoContentCoding(of request: ContractRequest, label: @autoclosure () -> String)
        -> (body: [UInt8], finding: ContractFinding?)
    {
        let codings = request.headers.values(named: "Content-Encoding")
        guard !codings.isEmpty else { return (request.body, nil) }
        var fields = HTTPFields()
        for header in request.headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        do throws(ParleyError) {
            return (try contentCodingStep.undo(request.body, fields: fields, registry: registry).body, nil)
        } catch {
            let named = codings.joined(separator: ", ")
            if error.code == .unsupportedContentEncoding {
                return (request.body, ContractFinding(.unchecked, "\(label()) is in Content-Encoding \(named), "
                                                      + "which no content coding of the checker undoes: not checked"))
            }
            return (request.body, ContractFinding(.request, "\(label()) does not undo its Content-Encoding \(named): "
                                                  + error.message))
        }
    }
}
