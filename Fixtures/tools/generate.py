#!/usr/bin/env python3
"""Writes Parley's own recordings under Fixtures/recorded (the clean set `make run` checks)
and Fixtures/failing (recordings each of which must fail `parley check`).

Bodies are built here from real encoders (json, plistlib, gzip, zlib, codecs) so every byte is
explainable; run `python3 Fixtures/tools/generate.py` from the repository root to rewrite them.
"""
import base64, gzip, json, os, plistlib, struct, zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SAMPLES = os.path.join(ROOT, "samples")


def sample(name):
    with open(os.path.join(SAMPLES, name), "rb") as f:
        return f.read()


def png(width, height):
    """A real RGBA PNG (gradient), written with zlib like any encoder would."""
    raw = b"".join(b"\x00" + bytes((x * 255 // max(1, width - 1), y * 255 // max(1, height - 1), 128, 255)
                                    [i % 4] for x in range(width) for i in range(4)) for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def gif():
    """The classic 1x1 transparent GIF beacon."""
    return base64.b64decode("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")


USER = json.dumps({"id": 4213, "login": "ada", "name": "Ada Lovelace", "admin": False,
                   "balance": 12345678901234567890123, "ratio": 0.1, "tags": ["math", "engines"],
                   "manager": None}, ensure_ascii=False).encode()
PROBLEM = json.dumps({"type": "https://example.org/problems/out-of-credit", "title": "You do not have enough credit.",
                      "status": 403, "detail": "Your current balance is 30, but that costs 50.",
                      "instance": "/account/12345/msgs/abc"}).encode()
NOT_FOUND = json.dumps({"type": "about:blank", "title": "Not Found", "status": 404}).encode()
PLIST_XML = plistlib.dumps({"name": "Parley", "version": 3, "enabled": True, "ratio": 0.5,
                            "items": ["a", "b"], "blob": b"\x00\x01\x02"}, fmt=plistlib.FMT_XML)
PLIST_BINARY = plistlib.dumps({"name": "Parley", "build": 42, "tags": ["plist", "binary"]}, fmt=plistlib.FMT_BINARY)
CAFE_1252 = "Café déjà vu – “quoted” €5\n".encode("cp1252")
SJIS = "こんにちは、世界\n".encode("shift_jis")
HTML_PAGE = b"<!DOCTYPE html>\n<html><head><title>Oops</title></head><body><h1>502 Bad Gateway</h1></body></html>\n"


def msgpack(value):
    """MessagePack for the few types the fixtures use (RFC-free spec: msgpack.org/spec)."""
    if value is None: return b"\xc0"
    if value is True: return b"\xc3"
    if value is False: return b"\xc2"
    if isinstance(value, int):
        if 0 <= value < 128: return bytes([value])
        if 0 <= value < 2**32: return b"\xce" + struct.pack(">I", value)
        return b"\xd3" + struct.pack(">q", value)
    if isinstance(value, float): return b"\xcb" + struct.pack(">d", value)
    if isinstance(value, str):
        data = value.encode()
        return (bytes([0xA0 | len(data)]) if len(data) < 32 else b"\xd9" + bytes([len(data)])) + data
    if isinstance(value, bytes): return b"\xc4" + bytes([len(value)]) + value
    if isinstance(value, list): return bytes([0x90 | len(value)]) + b"".join(msgpack(v) for v in value)
    if isinstance(value, dict):
        return bytes([0x80 | len(value)]) + b"".join(msgpack(k) + msgpack(v) for k, v in value.items())
    raise TypeError(value)


CSV = "id,name,city\r\n1,Ada Lovelace,London\r\n2,\"Hopper, Grace\",\"New York\"\r\n".encode()
MSGPACK = msgpack({"id": 4213, "login": "ada", "scores": [1, 2, 300000], "ratio": 0.5, "avatar": b"\x89PNG", "manager": None})


def har(entries, creator="Parley fixtures"):
    def headers(pairs):
        return [{"name": k, "value": v} for k, v in pairs]
    out = []
    for method, url, status, reason, pairs, body, binary in entries:
        content = {"size": len(body), "mimeType": dict(pairs).get("Content-Type", "")}
        if binary:
            content.update(text=base64.b64encode(body).decode(), encoding="base64")
        else:
            content.update(text=body.decode("utf-8"))
        out.append({"startedDateTime": "2026-11-20T10:00:00.000Z", "time": 12.5,
                    "request": {"method": method, "url": url, "httpVersion": "HTTP/1.1",
                                "headers": headers([("Accept", "application/json, */*;q=0.1")]),
                                "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
                    "response": {"status": status, "statusText": reason, "httpVersion": "HTTP/1.1",
                                 "headers": headers(pairs), "cookies": [], "content": content,
                                 "redirectURL": "", "headersSize": -1, "bodySize": len(body)},
                    "cache": {}, "timings": {"send": 1, "wait": 10, "receive": 1.5}})
    return json.dumps({"log": {"version": "1.2", "creator": {"name": creator, "version": "1.0"}, "entries": out}},
                      indent=2, ensure_ascii=False).encode()


def yaml_string(text):
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid YAML double-quoted scalar


def ruby_vcr_yaml(interactions):
    lines = ["---", "http_interactions:"]
    for method, uri, status, reason, pairs, body in interactions:
        lines += ["- request:", f"    method: {method.lower()}", f"    uri: {uri}", "    body:",
                  "      encoding: US-ASCII", "      string: ''", "    headers:", "      Accept:", "      - application/json"]
        lines += ["  response:", "    status:", f"      code: {status}", f"      message: {reason}", "    headers:"]
        for k, v in pairs:
            lines += [f"      {k}:", f"      - {yaml_string(v)}"]
        lines += ["    body:"]
        try:
            text = body.decode("utf-8")
            lines += ["      encoding: UTF-8", f"      string: {yaml_string(text)}"]
        except UnicodeDecodeError:
            lines += ["      encoding: ASCII-8BIT", "      string: !binary |-"]
            encoded = base64.b64encode(body).decode()
            lines += ["        " + encoded[i:i + 60] for i in range(0, len(encoded), 60)]
        lines += ["  recorded_at: Fri, 20 Nov 2026 10:00:00 GMT"]
    lines += ["recorded_with: VCR 6.3.1", ""]
    return "\n".join(lines).encode()


def ruby_vcr_json(interactions):
    out = []
    for method, uri, status, reason, pairs, body in interactions:
        headers = {}
        for k, v in pairs:
            headers.setdefault(k, []).append(v)
        try:
            response_body = {"encoding": "UTF-8", "string": body.decode("utf-8")}
        except UnicodeDecodeError:
            response_body = {"encoding": "ASCII-8BIT", "base64_string": base64.b64encode(body).decode()}
        out.append({"request": {"method": method.lower(), "uri": uri, "body": {"encoding": "UTF-8", "string": ""},
                                "headers": {"Accept": ["application/xml"]}},
                    "response": {"status": {"code": status, "message": reason}, "headers": headers, "body": response_body,
                                 "http_version": None},
                    "recorded_at": "Fri, 20 Nov 2026 10:00:00 GMT"})
    return json.dumps({"http_interactions": out, "recorded_with": "VCR 4.0.0"}).encode()


def vcrpy(interactions):
    lines = ["interactions:"]
    for method, uri, status, reason, pairs, body in interactions:
        lines += ["- request:", "    body: null", "    headers:", "      Accept:", "      - '*/*'",
                  f"    method: {method}", f"    uri: {uri}", "  response:", "    body:"]
        try:
            lines += [f"      string: {yaml_string(body.decode('utf-8'))}"]
        except UnicodeDecodeError:
            encoded = base64.b64encode(body).decode()
            lines += ["      string: !!binary |"] + ["        " + encoded[i:i + 76] for i in range(0, len(encoded), 76)]
        lines += ["    headers:"]
        for k, v in pairs:
            lines += [f"      {k}:", f"      - {yaml_string(v)}"]
        lines += ["    status:", f"      code: {status}", f"      message: {reason}"]
    lines += ["version: 1", ""]
    return "\n".join(lines).encode()


def go_vcr(interactions, version):
    lines = ["---", f"version: {version}", "interactions:"]
    for i, (method, uri, status, reason, pairs, body) in enumerate(interactions):
        text = body.decode("utf-8")
        if version == 2:
            lines += [f"- id: {i}", "  request:", "    proto: HTTP/1.1", "    body: \"\"", "    form: {}",
                      "    headers: {}", f"    url: {uri}", f"    method: {method}",
                      "  response:", "    proto: HTTP/1.1", f"    content_length: {len(body)}",
                      f"    body: {yaml_string(text)}", "    headers:"]
        else:
            lines += ["- request:", "    body: \"\"", "    form: {}", "    headers: {}", f"    url: {uri}",
                      f"    method: {method}", "  response:", f"    body: {yaml_string(text)}", "    headers:"]
        for k, v in pairs:
            lines += [f"      {k}:", f"      - {yaml_string(v)}"]
        lines += [f"    status: {status} {reason}", f"    code: {status}", "    duration: 1.5ms"]
    lines += [""]
    return "\n".join(lines).encode()


def raw(status_line, pairs, body, chunked=False, crlf=True):
    nl = b"\r\n" if crlf else b"\n"
    head = status_line.encode() + nl + b"".join(f"{k}: {v}".encode() + nl for k, v in pairs) + nl
    if chunked:
        framed = b""
        for i in range(0, len(body), 40):
            piece = body[i:i + 40]
            framed += f"{len(piece):x}".encode() + b"\r\n" + piece + b"\r\n"
        body = framed + b"0\r\n\r\n"
    return head + body


def write(folder, name, data):
    os.makedirs(os.path.join(ROOT, folder), exist_ok=True)
    with open(os.path.join(ROOT, folder, name), "wb") as f:
        f.write(data)


def main():
    user_gz = gzip.compress(USER, mtime=0)
    feed = sample("feed.atom")
    config = sample("config.yaml")
    image = png(16, 16)

    # HAR: JSON (plain and gzip-coded, stored base64), problem+json, 404, a PNG, a GIF, plist,
    # a 204, a redirect, and a 304 — like a browser export.
    write("recorded", "api-session.har", har([
        ("GET", "https://api.example.org/users/4213", 200, "OK",
         [("Content-Type", "application/json; charset=utf-8"), ("Content-Length", str(len(USER)))], USER, False),
        ("GET", "https://api.example.org/users/4213?compressed=1", 200, "OK",
         [("Content-Type", "application/json"), ("Content-Encoding", "gzip"), ("Content-Length", str(len(user_gz)))], user_gz, True),
        ("POST", "https://api.example.org/messages", 403, "Forbidden",
         [("Content-Type", "application/problem+json"), ("Content-Language", "en")], PROBLEM, False),
        ("GET", "https://api.example.org/users/0", 404, "Not Found",
         [("Content-Type", "application/problem+json")], NOT_FOUND, False),
        ("GET", "https://static.example.org/avatar.png", 200, "OK",
         [("Content-Type", "image/png"), ("Content-Length", str(len(image)))], image, True),
        ("GET", "https://static.example.org/pixel.gif", 200, "OK", [("Content-Type", "image/gif")], gif(), True),
        ("GET", "https://api.example.org/settings.plist", 200, "OK",
         [("Content-Type", "application/x-plist")], PLIST_XML, False),
        ("DELETE", "https://api.example.org/messages/7", 204, "No Content", [], b"", False),
        ("GET", "https://api.example.org/old", 301, "Moved Permanently",
         [("Location", "https://api.example.org/new"), ("Content-Type", "text/plain; charset=utf-8")], b"Moved.\n", False),
        ("GET", "https://api.example.org/users/4213", 304, "Not Modified", [("ETag", "\"abc\"")], b"", False),
        ("GET", "https://api.example.org/report.csv", 200, "OK", [("Content-Type", "text/csv; header=present; charset=utf-8")], CSV, False),
        ("GET", "https://api.example.org/users/4213.msgpack", 200, "OK", [("Content-Type", "application/msgpack")], MSGPACK, True),
    ]))

    # Ruby vcr YAML: YAML and Atom bodies, a windows-1252 text body and a binary plist (psych !binary).
    write("recorded", "ruby-vcr-feeds.yml", ruby_vcr_yaml([
        ("GET", "https://example.org/config.yaml", 200, "OK", [("Content-Type", "application/yaml")], config),
        ("GET", "https://example.org/feed", 200, "OK", [("Content-Type", "application/atom+xml; charset=utf-8")], feed),
        ("GET", "https://example.org/notes.txt", 200, "OK", [("Content-Type", "text/plain; charset=windows-1252")], CAFE_1252),
        ("GET", "https://example.org/prefs", 200, "OK", [("Content-Type", "application/x-bplist")], PLIST_BINARY),
    ]))

    # Ruby vcr JSON: XML and a Shift_JIS text body (base64_string, ASCII-8BIT).
    write("recorded", "ruby-vcr-catalog.json", ruby_vcr_json([
        ("GET", "https://example.org/catalog.xml", 200, "OK", [("Content-Type", "text/xml")],
         b"<?xml version=\"1.0\"?>\n<catalog><book id=\"1\"><title>Notes</title><price>12.50</price></book></catalog>\n"),
        ("GET", "https://example.jp/greeting.txt", 200, "OK", [("Content-Type", "text/plain; charset=shift_jis")], SJIS),
    ]))

    # vcrpy: a gzip-coded JSON body stored as !!binary, and a JSON body labelled text/html
    # (mislabelled: a warning, not a failure).
    write("recorded", "vcrpy-httpbin.yaml", vcrpy([
        ("GET", "https://httpbin.example/gzip", 200, "OK",
         [("Content-Type", "application/json"), ("Content-Encoding", "gzip"), ("Content-Length", str(len(user_gz)))], user_gz),
        ("GET", "https://legacy.example/api/status", 200, "OK", [("Content-Type", "text/html; charset=utf-8")],
         b"{\"status\": \"green\", \"uptime\": 99.98}\n"),
    ]))

    # go-vcr v1 and v2.
    write("recorded", "go-vcr-v1.yaml", go_vcr([
        ("GET", "https://example.org/hello", 200, "OK", [("Content-Type", "text/plain; charset=utf-8")], b"Hello, world\n"),
    ], 1))
    write("recorded", "go-vcr-v2.yaml", go_vcr([
        ("GET", "https://example.org/user", 200, "OK", [("Content-Type", "application/json")], USER),
        ("GET", "https://example.org/missing", 404, "Not Found", [("Content-Type", "application/problem+json")], NOT_FOUND),
    ], 2))

    # Raw HTTP: a redirect chain ending in chunked JSON (curl -i -L), and an LF-only capture.
    write("recorded", "redirect-chain.http",
          raw("HTTP/1.1 302 Found", [("Location", "/users/4213"), ("Content-Length", "0")], b"")
          + raw("HTTP/1.1 200 OK", [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")], USER, chunked=True))
    write("recorded", "plain-lf.http",
          raw("HTTP/1.0 200", [("Content-Type", "application/xml"), ("Content-Length", str(len(feed)))], feed, crlf=False))

    # Failing recordings: each must fail the check, for the reason its name gives.
    write("failing", "broken-json.har", har([
        ("GET", "https://api.example.org/broken", 200, "OK", [("Content-Type", "application/json")], b"{\"id\": 1, \"name\": }", False)]))
    write("failing", "html-error-page-as-json.yml", ruby_vcr_yaml([
        ("GET", "https://api.example.org/users", 502, "Bad Gateway", [("Content-Type", "application/json")], HTML_PAGE)]))
    write("failing", "jpeg-labelled-png.http",
          raw("HTTP/1.1 200 OK", [("Content-Type", "image/png"), ("Content-Length", "4")], b"\xff\xd8\xff\xe0"))
    write("failing", "corrupt-gzip.yaml", vcrpy([
        ("GET", "https://example.org/data", 200, "OK", [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
         user_gz[:10] + b"\x00" * 20 + user_gz[30:])]))
    write("failing", "malformed-content-type.yaml", go_vcr([
        ("GET", "https://example.org/x", 200, "OK", [("Content-Type", "application/json; charset")], b"{}")], 2))
    write("failing", "not-a-recording.har", b"{\"log\": {\"version\": \"1.2\", \"entries\": [ }\n")


if __name__ == "__main__":
    main()
