import ArgumentParser

/// `parley schema`: JSON Schema tools.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Validate bodies of any registered format against a JSON Schema.",
        discussion: """
            Examples:
              parley schema validate order.schema.json order.yaml
              parley schema validate order.schema.json order.xml --dialect openapi-3.0
            """,
        subcommands: [SchemaValidate.self])
}
