#!/usr/bin/env python3
"""Generates a large folder of recordings for measuring `parley check` at scale.

    python3 Benchmarks/Scripts/make-recorded-corpus.py /tmp/corpus --files 10000 --megabytes 1000
    swift build -c release --product parley
    /usr/bin/time -v .build/release/parley check /tmp/corpus --report json --output /dev/null --stats

A mix of kinds (60% HAR, 20% vcrpy YAML, 10% Ruby vcr JSON, 10% raw HTTP) with JSON, XML, YAML
and text bodies, some gzip-coded; sizes vary around the mean so the total reaches the target.
Deterministic (fixed seed). Nothing is written outside the output folder.

`--openapi FILE` also writes an OpenAPI 3.1 document the corpus matches (GET /r/{id}, /y and /z,
each a 200 with an array of the generated records), for `parley check --openapi`
(Scripts/check-openapi-throughput.sh). The raw HTTP recordings hold no request, so they are
contract-no-operation findings under it.
"""
import argparse, base64, gzip, json, os, random


def body(rng, size):
    records = []
    total = 2
    while total < size:
        record = {"id": rng.randrange(10**9), "name": f"user {rng.randrange(1000)} – Zürich",
                  "score": round(rng.random() * 1000, 3), "tags": ["alpha", "beta"][: rng.randrange(3)],
                  "active": rng.random() < 0.5, "note": "x" * rng.randrange(10, 200)}
        text = json.dumps(record, ensure_ascii=False)
        records.append(text)
        total += len(text.encode()) + 1
    return ("[" + ",".join(records) + "]").encode()


def har(rng, size):
    entries = []
    per = max(2_000, size // rng.randrange(2, 12))
    used = 0
    while used < size:
        payload = body(rng, min(per, size - used + 100))
        coded = rng.random() < 0.25
        content = {"size": len(payload), "mimeType": "application/json"}
        if coded:
            content.update(text=base64.b64encode(gzip.compress(payload, mtime=0)).decode(), encoding="base64")
            headers = [{"name": "Content-Type", "value": "application/json"},
                       {"name": "Content-Encoding", "value": "gzip"}]
        else:
            content.update(text=payload.decode())
            headers = [{"name": "Content-Type", "value": "application/json; charset=utf-8"}]
        url = f"https://api.example.org/r/{rng.randrange(10**6)}"
        entries.append({"request": {"method": "GET", "url": url, "headers": []},
                        "response": {"status": 200, "statusText": "OK", "headers": headers, "content": content}})
        used += len(payload)
    return json.dumps({"log": {"version": "1.2", "entries": entries}}, ensure_ascii=False).encode()


def vcrpy(rng, size):
    payload = body(rng, size)
    return ("interactions:\n- request:\n    body: null\n    headers: {}\n    method: GET\n"
            "    uri: https://x.example/y\n"
            "  response:\n    body:\n      string: " + json.dumps(payload.decode(), ensure_ascii=False) + "\n"
            "    headers:\n      Content-Type:\n      - application/json\n"
            "    status:\n      code: 200\n      message: OK\n"
            "version: 1\n").encode()


def ruby_json(rng, size):
    payload = body(rng, size)
    interaction = {"request": {"method": "get", "uri": "https://x.example/z", "headers": {}},
                   "response": {"status": {"code": 200, "message": "OK"},
                                "headers": {"Content-Type": ["application/json"]},
                                "body": {"encoding": "UTF-8", "string": payload.decode()}}}
    return json.dumps({"http_interactions": [interaction], "recorded_with": "VCR 6.0.0"}, ensure_ascii=False).encode()


def raw(rng, size):
    payload = body(rng, size)
    return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + str(len(payload)).encode()
            + b"\r\n\r\n" + payload)


def openapi_document():
    """The OpenAPI 3.1 document every recorded request of the corpus matches, its bodies valid."""
    record = {"type": "object", "required": ["id", "name", "score", "tags", "active", "note"],
              "additionalProperties": False,
              "properties": {"id": {"type": "integer", "minimum": 0}, "name": {"type": "string"},
                             "score": {"type": "number"}, "tags": {"type": "array", "items": {"type": "string"}},
                             "active": {"type": "boolean"}, "note": {"type": "string", "maxLength": 200}}}
    ok = {"200": {"description": "records",
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Records"}}}}}
    return {"openapi": "3.1.0", "info": {"title": "Generated corpus", "version": "1"},
            "paths": {"/r/{id}": {"get": {"operationId": "getRecords", "responses": ok,
                                          "parameters": [{"name": "id", "in": "path", "required": True,
                                                          "schema": {"type": "integer", "minimum": 0}}]}},
                      "/y": {"get": {"operationId": "getY", "responses": ok}},
                      "/z": {"get": {"operationId": "getZ", "responses": ok}}},
            "components": {"schemas": {"Record": record,
                                       "Records": {"type": "array", "items": {"$ref": "#/components/schemas/Record"}}}}}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("output")
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--megabytes", type=int, default=1_000)
    parser.add_argument("--openapi", help="also write the OpenAPI document the corpus matches to this file")
    args = parser.parse_args()
    if args.openapi:
        with open(args.openapi, "w") as f:
            json.dump(openapi_document(), f, indent=1)
    rng = random.Random(20261123)
    mean = args.megabytes * 1_000_000 // args.files
    os.makedirs(args.output, exist_ok=True)
    total = 0
    for index in range(args.files):
        size = max(1_000, int(rng.uniform(0.3, 1.7) * mean))
        pick = rng.random()
        maker, ext = ((har, "har") if pick < 0.6 else (vcrpy, "yaml") if pick < 0.8
                      else (ruby_json, "json") if pick < 0.9 else (raw, "http"))
        data = maker(rng, size)
        folder = os.path.join(args.output, f"{index // 1000:02d}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"recording-{index:05d}.{ext}"), "wb") as f:
            f.write(data)
        total += len(data)
    print(f"wrote {args.files} recordings, {total / 1e6:.1f} MB, to {args.output}")


if __name__ == "__main__":
    main()
