// Every module the docs' snippets use, so a generated snippet compiles with its own imports or none.
@_exported import Foundation
@_exported import HTTPTypes
@_exported import HTTPTypesFoundation
@_exported import Parley
@_exported import ParleyCLI
@_exported import ParleyClient
@_exported import ParleyCompression
@_exported import ParleyCSV
@_exported import ParleyFixtures
@_exported import ParleyImage
@_exported import ParleyJSON
@_exported import ParleyMessagePack
@_exported import ParleyPropertyList
@_exported import ParleyTestKit
@_exported import ParleyXML
@_exported import ParleyYAML
@_exported import Testing
