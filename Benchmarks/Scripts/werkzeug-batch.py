#!/usr/bin/env python3
"""The CLI batch modes' work done with werkzeug, for BenchReport's whole-process comparison.

    werkzeug-batch.py negotiate   < lines   {"accept": str, "offers": [str]} -> {"type": str|null}
    werkzeug-batch.py media-type  < lines   {"value": str} -> {"type", "subtype", "parameters"}

One JSON object a line in, one a line out, as `parley MODE --batch` reads and writes them.
"""
import json
import sys

from werkzeug.datastructures import MIMEAccept
from werkzeug.http import parse_accept_header, parse_options_header


def negotiate(line):
    request = json.loads(line)
    accept = parse_accept_header(request.get("accept"), MIMEAccept)
    return {"type": accept.best_match(request["offers"])}


def media_type(line):
    value, parameters = parse_options_header(json.loads(line)["value"])
    kind, _, subtype = value.partition("/")
    return {"type": kind, "subtype": subtype, "parameters": parameters}


def main():
    answer = {"negotiate": negotiate, "media-type": media_type}[sys.argv[1]]
    write = sys.stdout.write
    for line in sys.stdin:
        if line.strip():
            write(json.dumps(answer(line)) + "\n")


if __name__ == "__main__":
    main()
