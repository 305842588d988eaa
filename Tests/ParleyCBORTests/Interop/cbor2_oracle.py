"""The other side of CBORInteropTests: Python's cbor2 (C extension) as an independent oracle.

Usage: cbor2_oracle.py IN.json OUT.json

IN.json: {"seed": S, "count": N, "swift": [{"cbor": {"$data": b64}, "expected": TYPED}, ...]}
  Each Swift-encoded item is decoded with cbor2 and compared with the value its typed JSON names.
OUT.json: {"checked": n, "mismatches": [...], "python": [{"cbor": {"$data": b64}, "expected": TYPED}, ...]}
  N values generated with random.Random(S), each encoded with cbor2 (every other one canonical),
  for Swift to decode and compare.
"""
import base64
from collections.abc import Mapping
import datetime
import decimal
import json
import math
import random
import sys

import cbor2

UTC = datetime.timezone.utc


class Real:
    """A {"$real": text} expectation: compared as a float or, for a decimal fraction, exactly."""

    def __init__(self, text):
        self.text = text


def from_typed(t):
    if isinstance(t, list):
        return [from_typed(x) for x in t]
    if isinstance(t, dict):
        if len(t) >= 1:
            key = next(iter(t))
            if key == "$int":
                return int(t[key])
            if key == "$real":
                return Real(t[key])
            if key == "$data":
                return base64.b64decode(t[key])
            if key == "$date":
                text = t[key].replace("Z", "+00:00")
                return datetime.datetime.fromisoformat(text)
            if key == "$tag":
                tag, inner = t["$tag"], from_typed(t.get("value"))
                if tag == "cbor.undefined":
                    return cbor2.undefined
                if tag == "cbor.simple":
                    return cbor2.CBORSimpleValue(inner)
                if tag == "cbor.map":
                    return {freeze(k): v for k, v in inner}
                if tag.startswith("cbor.tag."):
                    return cbor2.CBORTag(int(tag[len("cbor.tag."):]), inner)
                return inner
        return {k: from_typed(v) for k, v in t.items()}
    return t


def freeze(value):
    return tuple(freeze(x) for x in value) if isinstance(value, list) else value


def same(expected, actual):
    if isinstance(expected, Real):
        if isinstance(actual, decimal.Decimal):
            return decimal.Decimal(expected.text) == actual
        if isinstance(actual, float):
            e = float(expected.text)
            same_sign = math.copysign(1, e) == math.copysign(1, actual)
            return (math.isnan(e) and math.isnan(actual)) or (e == actual and same_sign)
        return False
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, datetime.datetime):
        return isinstance(actual, datetime.datetime) and abs((actual - expected).total_seconds()) < 1e-6
    if isinstance(expected, list):
        # cbor2 reads arrays inside tags (and keys) as tuples.
        return isinstance(actual, (list, tuple)) and len(expected) == len(actual) and all(map(same, expected, actual))
    if isinstance(expected, dict):
        # Keys in any order: canonical encoding sorts them (and cbor2 reads maps in tags as frozendict).
        return (isinstance(actual, Mapping) and set(expected.keys()) == set(actual.keys())
                and all(same(v, actual[k]) for k, v in expected.items()))
    if isinstance(expected, cbor2.CBORTag):
        return isinstance(actual, cbor2.CBORTag) and expected.tag == actual.tag and same(expected.value, actual.value)
    return type(expected) is type(actual) and expected == actual


def to_typed(v):
    if v is None or isinstance(v, (bool, str)):
        return v
    if v is cbor2.undefined:
        return {"$tag": "cbor.undefined", "value": None}
    if isinstance(v, cbor2.CBORSimpleValue):
        return {"$tag": "cbor.simple", "value": {"$int": str(v.value)}}
    if isinstance(v, int):
        return {"$int": str(v)}
    if isinstance(v, float):
        return {"$real": "nan" if math.isnan(v) else "inf" if v == math.inf else "-inf" if v == -math.inf else repr(v)}
    if isinstance(v, bytes):
        return {"$data": base64.b64encode(v).decode()}
    if isinstance(v, datetime.datetime):
        fraction = ".%03dZ" % (v.microsecond // 1000) if v.microsecond else "Z"
        return {"$date": v.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S") + fraction}
    if isinstance(v, list):
        return [to_typed(x) for x in v]
    if isinstance(v, dict):
        return {str(k): to_typed(x) for k, x in v.items()}
    if isinstance(v, cbor2.CBORTag):
        return {"$tag": "cbor.tag.%d" % v.tag, "value": to_typed(v.value)}
    raise TypeError(type(v))


def random_value(rng, depth=0):
    kinds = ["null", "bool", "int", "bigint", "float", "str", "bytes", "date", "tag", "simple", "undefined"]
    if depth < 4:
        kinds += ["list", "dict", "dict", "intdict"]
    kind = rng.choice(kinds)
    if kind == "null":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "int":
        bound = rng.choice([23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1])
        return rng.randint(-bound - 1, bound) if rng.random() < 0.7 else rng.choice([bound, -bound - 1])
    if kind == "bigint":
        magnitude = rng.randint(2**64, 2**rng.randint(65, 200))
        return magnitude if rng.random() < 0.5 else -magnitude - 1
    if kind == "float":
        return rng.choice([
            lambda: rng.uniform(-1e6, 1e6), lambda: float(rng.randint(-2048, 2048)) / 8, lambda: math.inf,
            lambda: -math.inf, lambda: math.nan, lambda: -0.0, lambda: 5.960464477539063e-08, lambda: 65504.0,
            lambda: rng.uniform(-1, 1) * 10.0 ** rng.randint(-300, 300), lambda: float(rng.getrandbits(24)) / 1024,
        ])()
    if kind == "str":
        alphabet = "abcXYZ019 \"\\\n\t" + "éßüñ" + "水中文" + "😀𝄞" + "\u0000\u001f\u007f"
        return "".join(rng.choice(alphabet) for _ in range(rng.choice([0, 1, 5, 23, 24, 300])))
    if kind == "bytes":
        return bytes(rng.getrandbits(8) for _ in range(rng.choice([0, 1, 23, 24, 256])))
    if kind == "date":
        seconds = rng.randint(-2_000_000_000, 4_000_000_000)
        millis = rng.choice([0, rng.randint(1, 999)])
        return datetime.datetime.fromtimestamp(seconds, UTC) + datetime.timedelta(milliseconds=millis)
    if kind == "tag":
        return cbor2.CBORTag(rng.choice([7, 23, 99, 999, 65536, 2**40]), random_value(rng, depth + 1))
    if kind == "simple":
        return cbor2.CBORSimpleValue(rng.choice(list(range(0, 20)) + list(range(32, 256))))
    if kind == "undefined":
        return cbor2.undefined
    if kind == "list":
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 6))]
    if kind == "intdict":
        return {rng.randint(-1000, 1000): random_value(rng, depth + 1) for _ in range(rng.randint(1, 5))}
    return {"k%d%s" % (i, rng.choice(["", "é", "😀"])): random_value(rng, depth + 1)
            for i in range(rng.randint(0, 6))}


def main():
    with open(sys.argv[1]) as f:
        request = json.load(f)
    mismatches = []
    for index, item in enumerate(request["swift"]):
        data = base64.b64decode(item["cbor"]["$data"])
        try:
            actual = cbor2.loads(data)
        except Exception as error:  # noqa: BLE001 - reported back as a mismatch
            mismatches.append("item %d: cbor2 could not decode %s: %s" % (index, data.hex(), error))
            continue
        if not same(from_typed(item["expected"]), actual):
            expected = json.dumps(item["expected"])
            mismatches.append("item %d: %s decodes to %r, expected %s" % (index, data.hex(), actual, expected))
    rng = random.Random(request["seed"])
    python = []
    for index in range(request["count"]):
        value = random_value(rng)
        options = {"canonical": True} if index % 2 else {"datetime_as_timestamp": index % 4 == 0}
        encoded = base64.b64encode(cbor2.dumps(value, **options)).decode()
        python.append({"cbor": {"$data": encoded}, "expected": to_typed(value)})
    with open(sys.argv[2], "w") as f:
        json.dump({"checked": len(request["swift"]), "mismatches": mismatches, "python": python}, f)


if __name__ == "__main__":
    main()
