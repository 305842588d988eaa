import Hummingbird
import HummingbirdServiceApp

// hummingbird-service [PORT]: serves on 127.0.0.1 (port 8080 by default, or the PORT variable).
let arguments = CommandLine.arguments.dropFirst()
let port = arguments.first.flatMap { Int($0) } ?? Environment().get("PORT").flatMap { Int($0) } ?? 8080
try await buildApplication(port: port).runService()
