import Parley
import ParleyJSON
public import ParleyOpenAPI

// Contract checking (issue #35): a matched exchange checked against a small shop document (the
// operation lookup, the parameters, the headers and the body), and the operation lookup alone in
// generated documents of 10 and 1,000 paths with 3 or 8 segments each.

/// The shop document the exchange rows check against: `GET /v1/shops/{shop}/orders?limit=` with
/// a path and a query parameter and a 200 with an array of orders, and `POST` of one order.
public let openAPIShopDocument = """
    {"openapi": "3.1.0", "info": {"title": "Shop", "version": "1"},
     "servers": [{"url": "https://shop.example/v1"}],
     "paths": {"/shops/{shop}/orders": {
       "parameters": [{"name": "shop", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 1}}],
       "get": {"operationId": "listOrders",
         "parameters": [{"name": "limit", "in": "query", "required": true,
                         "schema": {"type": "integer", "minimum": 1, "maximum": 100}}],
         "responses": {"200": {"description": "the orders",
           "headers": {"X-Rate-Limit": {"required": true, "schema": {"type": "integer"}}},
           "content": {"application/json": {"schema": {"type": "array",
             "items": {"$ref": "#/components/schemas/Order"}}}}}}},
       "post": {"operationId": "addOrder",
         "requestBody": {"required": true,
           "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Order"}}}},
         "responses": {"201": {"description": "added",
           "content": {"application/json": {"schema": {"type": "object", "required": ["id"],
             "properties": {"id": {"type": "integer"}}}}}}}}}},
     "components": {"schemas": {
       "Order": {"type": "object", "required": ["id", "customer", "lines", "status"],
         "additionalProperties": false,
         "properties": {
           "id": {"type": "integer"},
           "customer": {"type": "string", "minLength": 1, "maxLength": 80},
           "status": {"enum": ["open", "paid", "shipped"]},
           "note": {"type": "string", "maxLength": 400},
           "lines": {"type": "array", "maxItems": 50, "items": {"$ref": "#/components/schemas/Line"}}}},
       "Line": {"type": "object", "required": ["sku", "quantity", "price"],
         "properties": {
           "sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
           "quantity": {"type": "integer", "minimum": 1},
           "price": {"type": "number", "minimum": 0}}}}}}
    """

/// One order of the shop document, `lines` order lines long.
func shopOrder(_ id: Int, lines: Int) -> String {
    let items = (0..<lines).map { line in
        "{\"sku\":\"ABC-\(1000 + line)\",\"quantity\":\(line + 1),\"price\":\(line * 3).25}"
    }
    return "{\"id\":\(id),\"customer\":\"customer \(id)\",\"status\":\"paid\","
        + "\"note\":\"left at the door\",\"lines\":[\(items.joined(separator: ","))]}"
}

/// The GET's 200 body: an array of three orders, 1,072 bytes.
public let openAPIOrdersBody = "[" + (0..<3).map { shopOrder($0 + 1, lines: 6) }.joined(separator: ",") + "]"
/// The POST's body: one order, 1,011 bytes.
public let openAPIOrderBody = shopOrder(7, lines: 20)

/// The checker on the shop document, with the JSON format.
public func makeShopChecker() throws -> ContractChecker {
    let registry = Registry(formats: [JSONFormat()])
    let document = try OpenAPIDocument(JSONFormat().decode(Array(openAPIShopDocument.utf8)),
                                       uri: "file:///bench/shop.json", registry: registry)
    return ContractChecker(document: document, registry: registry)
}

/// The GET exchange: two parameters, a required response header, a 1 KB JSON array.
public let openAPIGetExchange = (
    request: ContractRequest(method: "GET", target: "/v1/shops/42/orders?limit=20",
                             headers: [("Accept", "application/json")]),
    response: ContractResponse(status: 200, headers: [("Content-Type", "application/json"), ("X-Rate-Limit", "99")],
                               body: Array(openAPIOrdersBody.utf8)))

/// The POST exchange: a 1 KB JSON request body and a small 201 answer.
public let openAPIPostExchange = (
    request: ContractRequest(method: "POST", target: "/v1/shops/42/orders",
                             headers: [("Content-Type", "application/json")], body: Array(openAPIOrderBody.utf8)),
    response: ContractResponse(status: 201, headers: [("Content-Type", "application/json")],
                               body: Array("{\"id\":7}".utf8)))

/// A document of `paths` paths, each `/api/r<i>/s1/…/{id}` with `segments` segments in all, and
/// the request path of its last template.
public func makeRoutingDocument(paths: Int, segments: Int) throws -> (document: OpenAPIDocument, path: String) {
    let middle = (1..<max(segments - 2, 1)).map { "/s\($0)" }.joined()
    var members: [String] = []
    for index in 0..<paths {
        let operation = "{\"get\": {\"responses\": {\"200\": {\"description\": \"ok\"}}}}"
        members.append("\"/api/r\(index)\(middle)/{id}\": \(operation)")
    }
    let text = "{\"openapi\": \"3.1.0\", \"info\": {\"title\": \"Routes\", \"version\": \"1\"}, \"paths\": {"
        + members.joined(separator: ",") + "}}"
    let registry = Registry(formats: [JSONFormat()])
    let document = try OpenAPIDocument(JSONFormat().decode(Array(text.utf8)), uri: "file:///bench/routes.json",
                                       registry: registry)
    return (document, "/api/r\(paths - 1)\(middle)/12345")
}
