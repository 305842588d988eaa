import Parley
import ParleyHTTP
import ParleyCompression
import ParleyServerTesting
import ParleyVapor
import Vapor

/// The server under the shared live table: `RouteContract`'s routes and limits, on Vapor.
func addContractRoutes(_ app: Application) throws {
    app.parley.use(ParleyServer(registry: testRegistry, contentCodings: .zlib,
                                maxRequestBodyBytes: RouteContract.maxRequestBodyBytes,
                                maxDecompressedBytes: RouteContract.maxDecompressedBytes))
    app.get("resource") { _ in Negotiated(encoding: RouteContract.items) }
    app.get("value") { _ in Negotiated(RouteContract.value) }
    app.post("echo") { req in Negotiated(try req.parley.decode()) }
    app.post("upload") { req in
        Negotiated(encoding: RouteContract.Receipt(for: try req.parley.decode([RouteContract.Item].self)))
    }
}
