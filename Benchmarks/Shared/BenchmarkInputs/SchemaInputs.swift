// JSON Schema inputs (issue #34): a schema for the API-like document of `makeAPIDocument`, a
// GeoJSON schema for `makeGeoJSON`'s FeatureCollection, and a flat object of about 100 bytes with its
// schema. The same texts feed the Swift suite and the Python anchors (jsonschema-rs, jsonschema) of
// `Scripts/schema-anchors.py`.

/// A 2020-12 schema for every record of `makeAPIDocument`.
public let apiDocumentSchema = #"""
{"$schema": "https://json-schema.org/draft/2020-12/schema",
 "type": "array",
 "items": {"$ref": "#/$defs/record"},
 "$defs": {
  "record": {
   "type": "object",
   "required": ["id", "guid", "isActive", "balance", "age", "name", "email", "tags", "address", "friends"],
   "properties": {
    "id": {"type": "integer", "minimum": 0},
    "guid": {"type": "string", "minLength": 3},
    "isActive": {"type": "boolean"},
    "balance": {"type": "number", "minimum": 0},
    "age": {"type": "integer", "minimum": 0, "maximum": 150},
    "name": {"type": "string", "maxLength": 100},
    "email": {"type": "string", "maxLength": 200},
    "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
    "address": {"type": "object", "required": ["street", "city", "zip", "geo"],
                "properties": {"street": {"type": "string"}, "city": {"type": "string"},
                               "zip": {"type": "string", "minLength": 5, "maxLength": 5},
                               "geo": {"type": "object", "required": ["lat", "lng"],
                                       "properties": {"lat": {"type": "number", "minimum": -90, "maximum": 90},
                                                      "lng": {"type": "number", "minimum": -180, "maximum": 180}}}}},
    "friends": {"type": "array", "items": {"type": "object", "required": ["id", "name"],
                "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
                "additionalProperties": false}},
    "registered": {"type": "string"},
    "about": {"type": "string"}
   }
  }
 }
}
"""#

/// A flat object of about 100 bytes.
public let smallObject = #"""
    {"id": 12345, "name": "Ada Lovelace", "email": "ada@example.com",\#
     "age": 36, "active": true}
    """#

/// The schema of `smallObject`.
public let smallObjectSchema = #"""
{"type": "object", "required": ["id", "name", "email"],
 "properties": {"id": {"type": "integer", "minimum": 1}, "name": {"type": "string", "maxLength": 64},
                "email": {"type": "string", "minLength": 3}, "age": {"type": "integer", "minimum": 0, "maximum": 150},
                "active": {"type": "boolean"}},
 "additionalProperties": false}
"""#

/// A 2020-12 schema for GeoJSON (RFC 7946): a FeatureCollection of Features whose geometry is one of
/// the seven geometry types, told apart by `type`.
public let geoJSONSchema = #"""
{"$schema": "https://json-schema.org/draft/2020-12/schema",
 "$ref": "#/$defs/featureCollection",
 "$defs": {
  "position": {"type": "array", "minItems": 2, "maxItems": 3, "items": {"type": "number"}},
  "positions": {"type": "array", "items": {"$ref": "#/$defs/position"}},
  "lineString": {"type": "array", "minItems": 2, "items": {"$ref": "#/$defs/position"}},
  "linearRing": {"type": "array", "minItems": 4, "items": {"$ref": "#/$defs/position"}},
  "polygon": {"type": "array", "items": {"$ref": "#/$defs/linearRing"}},
  "bbox": {"type": "array", "minItems": 4, "items": {"type": "number"}},
  "point": {"type": "object", "required": ["type", "coordinates"],
            "properties": {"type": {"const": "Point"}, "coordinates": {"$ref": "#/$defs/position"},
                           "bbox": {"$ref": "#/$defs/bbox"}}},
  "multiPoint": {"type": "object", "required": ["type", "coordinates"],
                 "properties": {"type": {"const": "MultiPoint"}, "coordinates": {"$ref": "#/$defs/positions"},
                                "bbox": {"$ref": "#/$defs/bbox"}}},
  "lineStringGeometry": {"type": "object", "required": ["type", "coordinates"],
                         "properties": {"type": {"const": "LineString"}, "coordinates": {"$ref": "#/$defs/lineString"},
                                        "bbox": {"$ref": "#/$defs/bbox"}}},
  "multiLineString": {"type": "object", "required": ["type", "coordinates"],
                      "properties": {"type": {"const": "MultiLineString"},
                                     "coordinates": {"type": "array", "items": {"$ref": "#/$defs/lineString"}},
                                     "bbox": {"$ref": "#/$defs/bbox"}}},
  "polygonGeometry": {"type": "object", "required": ["type", "coordinates"],
                      "properties": {"type": {"const": "Polygon"}, "coordinates": {"$ref": "#/$defs/polygon"},
                                     "bbox": {"$ref": "#/$defs/bbox"}}},
  "multiPolygon": {"type": "object", "required": ["type", "coordinates"],
                   "properties": {"type": {"const": "MultiPolygon"},
                                  "coordinates": {"type": "array", "items": {"$ref": "#/$defs/polygon"}},
                                  "bbox": {"$ref": "#/$defs/bbox"}}},
  "geometryCollection": {"type": "object", "required": ["type", "geometries"],
                         "properties": {"type": {"const": "GeometryCollection"},
                                        "geometries": {"type": "array", "items": {"$ref": "#/$defs/geometry"}},
                                        "bbox": {"$ref": "#/$defs/bbox"}}},
  "geometry": {"oneOf": [{"$ref": "#/$defs/point"}, {"$ref": "#/$defs/multiPoint"},
                         {"$ref": "#/$defs/lineStringGeometry"}, {"$ref": "#/$defs/multiLineString"},
                         {"$ref": "#/$defs/polygonGeometry"}, {"$ref": "#/$defs/multiPolygon"},
                         {"$ref": "#/$defs/geometryCollection"}]},
  "feature": {"type": "object", "required": ["type", "properties", "geometry"],
              "properties": {"type": {"const": "Feature"}, "id": {"type": ["string", "number"]},
                             "properties": {"type": ["object", "null"]},
                             "geometry": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/geometry"}]},
                             "bbox": {"$ref": "#/$defs/bbox"}}},
  "featureCollection": {"type": "object", "required": ["type", "features"],
                        "properties": {"type": {"const": "FeatureCollection"},
                                       "features": {"type": "array", "items": {"$ref": "#/$defs/feature"}},
                                       "bbox": {"$ref": "#/$defs/bbox"}}}
 }
}
"""#
