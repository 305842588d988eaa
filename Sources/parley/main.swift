import Parley
import ParleyCLI

// The formats come from the ParleyFormatRegistration plugin: exactly the modules linked here.
await ParleyCommand.main(registry: .linked)
