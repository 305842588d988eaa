#!/usr/bin/env python3
"""The anchors of SchemaBenchmarks (issue #34): jsonschema-rs (Rust) and python-jsonschema validating
the same schemas as Shared/BenchmarkInputs/SchemaInputs.swift, on in-memory documents: the ~100-byte
object, a ~1 MiB array of records of makeAPIDocument's shape and a ~2 MiB GeoJSON FeatureCollection of
makeGeoJSON's shape (same fields and sizes, generated here with Python's own seeded generator, so not
byte-identical). With --documents DIR (../shared/corpora/real-world/documents) also the OpenAPI 3.0 and
3.1 document schemas (from openapi-spec-validator, the same texts ParleySchema bundles) against the
Twilio (3.0) and OpenAI (3.1) descriptions. Formats are annotations on both sides. Prints microseconds
per validation.
Needs: python3 -m pip install jsonschema-rs==0.29.1 jsonschema==4.26.0 (and openapi-spec-validator==0.9.0
for --documents)"""
import json, os, random, re, sys, time, timeit
import jsonschema, jsonschema_rs

here = os.path.dirname(os.path.abspath(__file__))
swift = open(os.path.join(here, "..", "Shared", "BenchmarkInputs", "SchemaInputs.swift")).read()
def raw(name):
    match = re.search(r"let %s = #\"\"\"\n(.*?)\n\"\"\"#" % name, swift, re.S) or \
        re.search(r"let %s = #\"(.*?)\"#" % name, swift, re.S)
    return json.loads(match.group(1))

small, small_schema, api_schema = raw("smallObject"), raw("smallObjectSchema"), raw("apiDocumentSchema")
rng = random.Random(1)
words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
records, size, i = [], 0, 0
while size < 1 << 20:
    record = {"id": i, "guid": "%x-%x" % (rng.getrandbits(64), rng.getrandbits(16)), "isActive": rng.random() < 0.5,
              "balance": rng.randrange(1_000_000) + rng.randrange(10, 100) / 100, "age": rng.randrange(18, 90),
              "name": "%s %s" % (rng.choice(words).title(), rng.choice(words).title()),
              "email": "%s.%s@example.com" % (rng.choice(words), rng.choice(words)),
              "tags": [rng.choice(words) for _ in range(rng.randrange(1, 6))],
              "address": {"street": "%d %s Street" % (rng.randrange(1, 999), rng.choice(words).title()),
                          "city": rng.choice(words), "zip": str(rng.randrange(10000, 99999)),
                          "geo": {"lat": rng.randrange(-89, 89) + 0.5, "lng": rng.randrange(-179, 179) + 0.25}},
              "friends": [{"id": rng.randrange(1000), "name": rng.choice(words)} for _ in range(rng.randrange(0, 4))],
              "registered": "2024-01-10T01:15:00Z",
              "about": "%s \"quoted\" %s" % (rng.choice(words), rng.choice(words))}
    records.append(record)
    size += len(json.dumps(record))
    i += 1
api = records

def geojson(target):
    features, size, index = [], 0, 0
    while size < target:
        base_lng = rng.randrange(-179_000_000, 179_000_000) / 1e6
        base_lat = rng.randrange(-89_000_000, 89_000_000) / 1e6
        ring = [[round(base_lng + rng.randrange(100_000) / 1e6, 6), round(base_lat + rng.randrange(100_000) / 1e6, 6)]
                for _ in range(rng.randrange(8, 40))]
        ring.append(ring[0])
        feature = {"type": "Feature", "properties": {"name": "%s %d" % (rng.choice(words), index),
                                                      "population": rng.randrange(10_000_000)},
                   "geometry": {"type": "Polygon", "coordinates": [ring]}}
        features.append(feature)
        size += len(json.dumps(feature, separators=(",", ":")))
        index += 1
    return {"type": "FeatureCollection", "features": features}, size

geo, geo_size = geojson(2 << 20)
geo_schema = raw("geoJSONSchema")

def measure(label, call, number, repeat=5):
    # CPU time of this process, as BenchReport measures its own side.
    seconds = min(timeit.repeat(call, number=number, repeat=repeat, timer=time.process_time)) / number
    print("%-40s %12.3f us" % (label, seconds * 1e6))

rs_small = jsonschema_rs.validator_for(small_schema)
py_small = jsonschema.validators.validator_for(small_schema)(small_schema)
rs_api = jsonschema_rs.validator_for(api_schema)
py_api = jsonschema.validators.validator_for(api_schema)(api_schema)
assert rs_small.is_valid(small) and py_small.is_valid(small) and rs_api.is_valid(api) and py_api.is_valid(api)
print("api document: %d records, %d bytes of JSON" % (len(api), size))
measure("jsonschema-rs is_valid object-100b", lambda: rs_small.is_valid(small), 100_000)
measure("python-jsonschema is_valid object-100b", lambda: py_small.is_valid(small), 2_000)
measure("jsonschema-rs is_valid api-1mb", lambda: rs_api.is_valid(api), 10)
measure("python-jsonschema is_valid api-1mb", lambda: py_api.is_valid(api), 1)
measure("jsonschema-rs compile api-schema", lambda: jsonschema_rs.validator_for(api_schema), 1_000)

rs_geo = jsonschema_rs.validator_for(geo_schema)
py_geo = jsonschema.validators.validator_for(geo_schema)(geo_schema)
assert rs_geo.is_valid(geo) and py_geo.is_valid(geo)
print("geojson: %d features, %d bytes of JSON" % (len(geo["features"]), geo_size))
measure("jsonschema-rs is_valid geojson-2mb", lambda: rs_geo.is_valid(geo), 10)
measure("python-jsonschema is_valid geojson-2mb", lambda: py_geo.is_valid(geo), 1, repeat=3)

if "--documents" in sys.argv:
    import openapi_spec_validator
    documents = sys.argv[sys.argv.index("--documents") + 1]
    schemas = os.path.join(os.path.dirname(openapi_spec_validator.__file__), "resources", "schemas")
    for label, version, path, slow_repeat in [
            ("openapi30-twilio", "v3.0", "json/twilio-oai/twilio_api_v2010.json", 3),
            ("openapi31-openai", "v3.1", "json/openai-openapi/openapi.json", 1)]:
        schema = json.load(open(os.path.join(schemas, version, "schema.json")))
        document = json.load(open(os.path.join(documents, path)))
        rs = jsonschema_rs.validator_for(schema, validate_formats=False)
        py = jsonschema.validators.validator_for(schema)(schema)
        try:
            assert rs.is_valid(document)
            measure("jsonschema-rs is_valid " + label, lambda: rs.is_valid(document), 3)
        except ValueError as error:  # the binding takes no integer beyond 64 bits (OpenAI's has some)
            print("jsonschema-rs is_valid %s unavailable: %s" % (label, error))
        assert py.is_valid(document)
        measure("python-jsonschema is_valid " + label, lambda: py.is_valid(document), 1, repeat=slow_repeat)
        if version == "v3.1":
            measure("jsonschema-rs compile openapi31-schema",
                    lambda: jsonschema_rs.validator_for(schema, validate_formats=False), 100)
