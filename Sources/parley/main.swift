import Parley
import ParleyCLI
import ParleyProtobuf

// The formats come from the ParleyFormatRegistration plugin: exactly the modules linked here.
// `--descriptor-set` files configure the linked protobuf format.
await ParleyCommand.main(registry: .linked, schemaLoader: SchemaLoader { sets in
    let format = try ProtobufFormat(descriptorSets: sets)
    return (format, format.messageTypes)
})
