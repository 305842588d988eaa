"""The peer for ParleyOpenAPI's agreement test: openapi-core's verdicts on a corpus of exchanges.

Usage: python3 openapi_core_oracle.py SPEC.json EXCHANGES.jsonl > verdicts.jsonl
Each input line: {"method", "url", "request_headers": {..}, "request_body": str|null,
"status", "response_headers": {..}, "response_body": str}. Each output line:
{"request": true|false, "response": true|false, "errors": [str]}.
"""
import json
import os
import sys

# The pure-Python schema backend: the jsonschema-rs that `make bench-report` pins is older than
# what openapi-spec-validator's other backend expects.
os.environ.setdefault("OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND", "jsonschema")

from openapi_core import OpenAPI
from openapi_core.testing import MockRequest, MockResponse


def main():
    with open(sys.argv[1]) as f:
        api = OpenAPI.from_dict(json.load(f))
    with open(sys.argv[2]) as f:
        lines = f.read().splitlines()
    for line in lines:
        case = json.loads(line)
        url = case["url"]
        scheme, rest = url.split("://", 1)
        host, _, path_query = rest.partition("/")
        path, _, query = ("/" + path_query).partition("?")
        args = {}
        for pair in filter(None, query.split("&")):
            name, _, value = pair.partition("=")
            args.setdefault(name, value)
        request_headers = case.get("request_headers", {})
        body = case.get("request_body")
        request = MockRequest(
            f"{scheme}://{host}", case["method"].lower(), path, args=args,
            data=body.encode() if body is not None else None, headers=request_headers,
            content_type=request_headers.get("Content-Type", "application/json"))
        errors = []
        try:
            api.validate_request(request)
            request_ok = True
        except Exception as error:  # any validation error is a verdict, not a crash
            request_ok = False
            errors.append(f"request: {type(error).__name__}: {error}")
        response_headers = case.get("response_headers", {})
        response = MockResponse(
            case["response_body"].encode(), status_code=case["status"], headers=response_headers,
            content_type=response_headers.get("Content-Type", "application/json"))
        try:
            api.validate_response(request, response)
            response_ok = True
        except Exception as error:
            response_ok = False
            errors.append(f"response: {type(error).__name__}: {error}")
        print(json.dumps({"request": request_ok, "response": response_ok, "errors": errors}), flush=True)


if __name__ == "__main__":
    main()
