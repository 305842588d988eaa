import Foundation
import Parley
import ParleyProtobuf
import ParleyTestKit

/// The committed descriptor set of `Resources/oracle_test.proto` (with the well-known types), which the
/// oracle test checks against protoc's output.
enum TestSchema {
    static let descriptorSet: [UInt8] = {
        guard let root = Corpora.packageRoot(),
              let data = FileManager.default.contents(
                atPath: root.appendingPathComponent("Tests/ParleyProtobufTests/Resources/oracle_test.binpb").path)
        else { return [] }
        return [UInt8](data)
    }()

    static func format(messageType: String? = "parley.test.Everything",
                       keepsUnknownFields: Bool = false) throws -> ProtobufFormat {
        try ProtobufFormat(descriptorSets: [descriptorSet],
                           options: .init(messageType: messageType, keepsUnknownFields: keepsUnknownFields))
    }

    static func type(_ name: String) -> MediaType {
        MediaType(type: "application", subtype: "protobuf", parameters: [.init(name: "messageType", value: name)])
    }
}
