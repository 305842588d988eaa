#!/usr/bin/env python3
"""Writes Tests/Browser/hostile/: recordings whose every field tries to break out of the HTML
report (script tags, a closing </textarea> and </script>, event-handler attributes,
javascript: URLs, U+2028/U+2029, bidirectional overrides, NUL and other controls), plus a
snapshot sidecar that does not match, so the report shows a mismatch side by side.

    python3 Tests/Browser/make_hostile.py

The browser tests render these and assert no script runs; ParleyFixturesTests checks the
HTML writer escapes them. Deterministic; writes only into Tests/Browser/hostile/.
"""
import base64, json, os, struct, zlib

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile")
PAYLOAD = "</script><script>alert('x')</script></textarea><img src=x onerror=alert(1)>"
ODD = "\u202Eevil\u202C \u2028line\u2029para \u0000nul \u001b[2J \ufeffbom \u200bzw"


def png(width, height):
    raw = b"".join(b"\x00" + bytes([200, 40, 40, 255]) * width for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def entry(method, url, status, status_text, headers, text, mime, encoding=None, request_headers=()):
    content = {"size": len(text), "mimeType": mime, "text": text}
    if encoding:
        content["encoding"] = encoding
    return {"request": {"method": method, "url": url, "headers": [{"name": n, "value": v} for n, v in request_headers]},
            "response": {"status": status, "statusText": status_text,
                         "headers": [{"name": n, "value": v} for n, v in headers], "content": content}}


def main():
    os.makedirs(HERE, exist_ok=True)
    entries = [
        # 0: an HTML page with scripts, labelled JSON: mislabelled, fails to decode.
        entry("GET", "javascript:alert(document.domain)//" + PAYLOAD, 502, PAYLOAD,
              [("Content-Type", "application/json"), ("X-Evil", PAYLOAD), ("X-Odd", ODD)],
              "<!DOCTYPE html><html><head><title>Bad gateway</title><script>alert('page')</script></head>"
              "<body onload=alert(2)><textarea></textarea><script>alert(3)</script></body></html>",
              "application/json", request_headers=[("Referer", "javascript:alert(4)"), ("<b>bold</b>", PAYLOAD)]),
        # 1: JSON whose keys and values are markup and odd Unicode.
        entry("POST", "https://example.org/x?q=" + PAYLOAD, 200, "OK",
              [("Content-Type", "application/json; charset=utf-8")],
              json.dumps({PAYLOAD: "javascript:alert(5)", "odd": ODD, "nested": {"deeper": {"deepest": ["<!--", "]]>", "-->"]}},
                          "link": "<a href=\"javascript:alert(6)\">click</a>"}, ensure_ascii=False),
              "application/json"),
        # 2: text with a closing script tag and controls.
        entry("GET", "https://example.org/notes.txt", 200, "OK",
              [("Content-Type", "text/plain; charset=utf-8")],
              "line one\n" + PAYLOAD + "\n" + ODD + "\n{{constructor.constructor('alert(7)')()}}\n", "text/plain"),
        # 3: an SVG with a script: decoded as an XML tree, never inlined as an image.
        entry("GET", "https://example.org/logo.svg", 200, "OK",
              [("Content-Type", "image/svg+xml")],
              "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(8)\"><script>alert(9)</script>"
              "<a href=\"javascript:alert(10)\"><text>hi</text></a></svg>", "image/svg+xml"),
        # 4: CSV with formulas and markup.
        entry("GET", "https://example.org/report.csv", 200, "OK",
              [("Content-Type", "text/csv; header=present")],
              "name,note\r\n=cmd|' /C calc'!A0,\"" + PAYLOAD.replace('"', '""') + "\"\r\n", "text/csv"),
        # 5: a real PNG, inlined as a data URI.
        entry("GET", "https://example.org/red.png", 200, "OK", [("Content-Type", "image/png")],
              base64.b64encode(png(12, 8)).decode(), "image/png", encoding="base64"),
        # 6: a Content-Type that tries to leave its attribute.
        entry("GET", "https://example.org/y", 200, "OK", [("Content-Type", "image/png\"><script>alert(11)</script>")],
              "{}", "image/png"),
    ]
    with open(os.path.join(HERE, "hostile.har"), "w", encoding="utf-8") as f:
        json.dump({"log": {"version": "1.2", "creator": {"name": PAYLOAD, "version": "1"}, "entries": entries}},
                  f, ensure_ascii=False, indent=1)
    # Pins exchange 1 to a different value: a snapshot mismatch whose values hold markup too.
    sidecar = {"exchanges": [{"index": 1, "match": "subset",
                              "value": {PAYLOAD: "javascript:alert(12)", "nested": {"deeper": {"deepest": ["<!--", "<script>"]}}}}]}
    with open(os.path.join(HERE, "hostile.har.parley.json"), "w", encoding="utf-8") as f:
        json.dump(sidecar, f, ensure_ascii=False, indent=1)
    # A raw capture whose status line and fields carry markup.
    with open(os.path.join(HERE, "raw-capture.http"), "wb") as f:
        f.write(("HTTP/1.1 200 " + PAYLOAD + "\r\nContent-Type: text/html; charset=utf-8\r\nX-Script: " + PAYLOAD
                 + "\r\n\r\n<script>alert(13)</script>\u2028\u2029").encode())


if __name__ == "__main__":
    main()
