#!/usr/bin/env python3
"""The outside oracle for ParleyProtobuf: Google's protoc (grpcio-tools) and Python protobuf.

  protobuf_oracle.py generate OUT COUNT SEED
      compiles oracle_test.proto and oracle_groups.proto into OUT (one descriptor set with --include_imports,
      and Python classes), checks the committed oracle_test.binpb matches, and writes OUT/cases.json: COUNT
      random parley.test.Everything messages and COUNT random parley.test2.WithGroups messages (proto2 groups),
      each as {"type": full name, "wire": base64, "json": json_format.MessageToDict(...)}.
  protobuf_oracle.py verify OUT
      reads OUT/results.json (Parley's JSON of each case's wire bytes, and Parley's encoding of each
      case's JSON), requires each JSON to equal MessageToDict's as a value and each encoding to parse
      back (ParseFromString) to a message equal to the original, and prints the counts.

Needs grpcio-tools==1.71.0 and protobuf==5.29.4 (make test installs them).
"""
import base64
import importlib
import json
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

try:
    import grpc_tools
    from grpc_tools import protoc
    from google.protobuf import json_format
except ImportError as error:
    sys.exit("protobuf_oracle.py needs Python packages: python3 -m pip install grpcio-tools==1.71.0 "
             f"protobuf==5.29.4 ({error})")


def compile_proto(out):
    include = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    descriptor = os.path.join(out, "oracle_test.binpb")
    status = protoc.main(["protoc", f"-I{HERE}", f"-I{include}", f"--descriptor_set_out={descriptor}",
                          "--include_imports", f"--python_out={out}", os.path.join(HERE, "oracle_test.proto"),
                          os.path.join(HERE, "oracle_groups.proto")])
    if status != 0:
        sys.exit(f"protoc failed with status {status}")
    with open(descriptor, "rb") as fresh, open(os.path.join(HERE, "oracle_test.binpb"), "rb") as committed:
        if fresh.read() != committed.read():
            sys.exit("Resources/oracle_test.binpb differs from protoc's output: copy " + descriptor + " over it")
    sys.path.insert(0, out)
    return importlib.import_module("oracle_test_pb2"), importlib.import_module("oracle_groups_pb2")


def random_text(rng):
    pools = [(0x20, 0x7E), (0xA0, 0x2FF), (0x400, 0x4FF), (0x4E00, 0x4FFF), (0x1F600, 0x1F64F)]
    characters = []
    for _ in range(rng.randrange(0, 12)):
        low, high = rng.choice(pools)
        characters.append(chr(rng.randint(low, high)))
    return "".join(characters)


def random_double(rng):
    return rng.choice([0.0, 1.0, -2.5, 1e300, -1e-300, 5e-324, math.inf, -math.inf, math.nan,
                       rng.uniform(-1e6, 1e6), rng.random(), rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)])


def random_float(rng):
    value = rng.choice([0.0, 1.5, -3.25, 3.4e38, 1e-45, math.inf, -math.inf, math.nan,
                        rng.uniform(-1e4, 1e4), rng.uniform(-1, 1) * 10 ** rng.randint(-20, 20)])
    return value


INT_RANGES = {
    "int32": (-2**31, 2**31 - 1), "sint32": (-2**31, 2**31 - 1), "sfixed32": (-2**31, 2**31 - 1),
    "int64": (-2**63, 2**63 - 1), "sint64": (-2**63, 2**63 - 1), "sfixed64": (-2**63, 2**63 - 1),
    "uint32": (0, 2**32 - 1), "fixed32": (0, 2**32 - 1), "uint64": (0, 2**64 - 1), "fixed64": (0, 2**64 - 1),
}


def random_int(rng, kind):
    low, high = INT_RANGES[kind]
    return rng.choice([0, 1, low, high, rng.randint(low, high), rng.randint(max(low, -300), 300)])


def random_color(rng):
    return rng.choice([0, 1, 2, -3, 7, -100])


def fill_scalars(message, rng, density=0.6):
    for kind in INT_RANGES:
        if rng.random() < density:
            setattr(message, "f_" + kind, random_int(rng, kind))
    if rng.random() < density:
        message.f_double = random_double(rng)
    if rng.random() < density:
        message.f_float = random_float(rng)
    if rng.random() < density:
        message.f_bool = rng.random() < 0.5
    if rng.random() < density:
        message.f_string = random_text(rng)
    if rng.random() < density:
        message.f_bytes = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 9)))
    if rng.random() < density:
        message.f_color = random_color(rng)


def fill_repeated(message, rng):
    count = lambda: rng.randrange(0, 5)
    for kind in INT_RANGES:
        getattr(message, "r_" + kind).extend(random_int(rng, kind) for _ in range(count()))
    message.r_double.extend(random_double(rng) for _ in range(count()))
    message.r_float.extend(random_float(rng) for _ in range(count()))
    message.r_bool.extend(rng.random() < 0.5 for _ in range(count()))
    message.r_string.extend(random_text(rng) for _ in range(count()))
    message.r_bytes.extend(bytes(rng.randrange(256) for _ in range(rng.randrange(0, 5))) for _ in range(count()))
    message.r_color.extend(random_color(rng) for _ in range(count()))
    message.unpacked_int32.extend(random_int(rng, "int32") for _ in range(count()))
    message.unpacked_sint64.extend(random_int(rng, "sint64") for _ in range(count()))
    for _ in range(rng.randrange(0, 3)):
        fill_scalars(message.r_message.add(), rng)


def random_json(rng, depth=0):
    choices = ["null", "number", "string", "bool"] + (["object", "array"] if depth < 3 else [])
    kind = rng.choice(choices)
    if kind == "null":
        return None
    if kind == "number":
        return rng.choice([0.0, 1.0, -7.0, rng.uniform(-1e9, 1e9), 2.0 ** 53, 1e-7])
    if kind == "string":
        return random_text(rng)
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "object":
        return {random_text(rng): random_json(rng, depth + 1) for _ in range(rng.randrange(0, 4))}
    return [random_json(rng, depth + 1) for _ in range(rng.randrange(0, 4))]


def fill_maps(message, rng, module):
    count = lambda: rng.randrange(0, 4)
    for _ in range(count()):
        message.string_to_string[random_text(rng)] = random_text(rng)
    for _ in range(count()):
        message.int32_to_int64[random_int(rng, "int32")] = random_int(rng, "int64")
    for _ in range(count()):
        message.int64_to_color[random_int(rng, "int64")] = random_color(rng)
    for _ in range(count()):
        message.uint32_to_bytes[random_int(rng, "uint32")] = bytes(rng.randrange(256) for _ in range(3))
    for _ in range(count()):
        message.bool_to_double[rng.random() < 0.5] = random_double(rng)
    for _ in range(count()):
        fill_scalars(message.sint64_to_message[random_int(rng, "sint64")], rng, density=0.3)
    for _ in range(count()):
        message.fixed32_to_bool[random_int(rng, "fixed32")] = rng.random() < 0.5
    for _ in range(count()):
        json_format.ParseDict(random_json(rng), message.string_to_value[random_text(rng)])


def fill_well_known(message, rng, module):
    if rng.random() < 0.6:
        message.timestamp.seconds = rng.randint(-62135596800, 253402300799)
        message.timestamp.nanos = rng.choice([0, 1_000_000 * rng.randrange(1000), 1000 * rng.randrange(10**6),
                                              rng.randrange(10**9)])
    if rng.random() < 0.6:
        seconds = rng.randint(-315576000000, 315576000000)
        nanos = rng.choice([0, 500_000_000, rng.randrange(10**9)])
        message.duration.seconds = seconds
        message.duration.nanos = -nanos if seconds < 0 else nanos
    if rng.random() < 0.5:
        message.double_value.value = random_double(rng)
    if rng.random() < 0.5:
        message.float_value.value = random_float(rng)
    if rng.random() < 0.5:
        message.int64_value.value = random_int(rng, "int64")
    if rng.random() < 0.5:
        message.uint64_value.value = random_int(rng, "uint64")
    if rng.random() < 0.5:
        message.int32_value.value = random_int(rng, "int32")
    if rng.random() < 0.5:
        message.uint32_value.value = random_int(rng, "uint32")
    if rng.random() < 0.5:
        message.bool_value.value = rng.random() < 0.5
    if rng.random() < 0.5:
        message.string_value.value = random_text(rng)
    if rng.random() < 0.5:
        message.bytes_value.value = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 6)))
    if rng.random() < 0.5:
        json_format.ParseDict({random_text(rng): random_json(rng) for _ in range(rng.randrange(0, 4))},
                              message.struct_value)
    if rng.random() < 0.5:
        json_format.ParseDict(random_json(rng), message.value)
    if rng.random() < 0.5:
        json_format.ParseDict([random_json(rng) for _ in range(rng.randrange(0, 4))], message.list_value)
    if rng.random() < 0.5:
        words = ["alpha", "beta_gamma", "delta.epsilon_zeta", "x1", "long_field_name.sub"]
        message.field_mask.paths.extend(rng.sample(words, rng.randrange(0, 4)))
    if rng.random() < 0.5:
        choice = rng.randrange(3)
        if choice == 0:
            inner = module.Scalars()
            fill_scalars(inner, rng, density=0.4)
            message.any.Pack(inner)
        elif choice == 1:
            inner = module.google_dot_protobuf_dot_timestamp__pb2.Timestamp(seconds=rng.randint(0, 2**31))
            message.any.Pack(inner)
        else:
            inner = module.google_dot_protobuf_dot_wrappers__pb2.Int64Value(value=random_int(rng, "int64"))
            message.any.Pack(inner)
    if rng.random() < 0.3:
        message.empty.SetInParent()
    for _ in range(rng.randrange(0, 3)):
        message.timestamps.add(seconds=rng.randint(-10**10, 10**10), nanos=rng.randrange(10**9))


def fill_everything(message, rng, module, depth=0):
    if rng.random() < 0.7:
        fill_scalars(message.scalars, rng)
    if rng.random() < 0.6:
        fill_repeated(message.repeated, rng)
    if rng.random() < 0.6:
        fill_maps(message.maps, rng, module)
    if rng.random() < 0.6:
        fill_well_known(message.well_known, rng, module)
    choice = rng.randrange(5)
    if choice == 0:
        message.choice_text = random_text(rng)
    elif choice == 1:
        message.choice_number = random_int(rng, "int64")
    elif choice == 2:
        fill_scalars(message.choice_message, rng, density=0.3)
    elif choice == 3:
        message.choice_color = random_color(rng)
    if rng.random() < 0.5:
        message.optional_int32 = rng.choice([0, random_int(rng, "int32")])
    if rng.random() < 0.5:
        message.optional_string = rng.choice(["", random_text(rng)])
    if rng.random() < 0.5:
        message.optional_color = rng.choice([0, random_color(rng)])
    if rng.random() < 0.5:
        message.custom_json = random_int(rng, "int32")
    if depth < 2 and rng.random() < 0.3:
        fill_everything(message.child, rng, module, depth + 1)


def fill_groups(message, rng, depth=0):
    if rng.random() < 0.6:
        message.id = random_int(rng, "int32")
    if rng.random() < 0.7:
        message.header.SetInParent()
        if rng.random() < 0.7:
            message.header.title = random_text(rng)
        if rng.random() < 0.5:
            message.header.stamp = random_int(rng, "sint64")
        for _ in range(rng.randrange(0, 3)):
            tag = message.header.tag.add()
            if rng.random() < 0.8:
                tag.label = random_text(rng)
    for _ in range(rng.randrange(0, 3)):
        item = message.item.add()
        if rng.random() < 0.7:
            item.count = random_int(rng, "uint32")
        if rng.random() < 0.5:
            item.weight = random_double(rng)
        if depth < 2 and rng.random() < 0.3:
            fill_groups(item.nested, rng, depth + 1)
    if rng.random() < 0.5:
        message.note = random_text(rng)


def to_dict(message):
    return json_format.MessageToDict(message, preserving_proto_field_name=False)


def generate(out, count, seed):
    module, groups = compile_proto(out)
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        message = module.Everything()
        fill_everything(message, rng, module)
        cases.append(case(message))
    for _ in range(count):
        message = groups.WithGroups()
        fill_groups(message, rng)
        cases.append(case(message))
    with open(os.path.join(out, "cases.json"), "w") as handle:
        json.dump(cases, handle)
    print(f"protobuf oracle: {len(cases)} random messages (seed {seed}) written")


def case(message):
    wire = message.SerializeToString()
    return {"type": message.DESCRIPTOR.full_name, "wire": base64.b64encode(wire).decode(), "json": to_dict(message)}


def same(a, b):
    """Equality as JSON values; NaN equals NaN (ProtoJSON writes it as a string anyway)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[key], b[key]) for key in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b


def difference(a, b, path="$"):
    """The first path where two JSON values differ, with both sides."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key}: python {a.get(key, '(absent)')!r}, parley {b.get(key, '(absent)')!r}"
            found = difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b)):
            found = difference(x, y, f"{path}[{index}]")
            if found:
                return found
        return None
    return None if same(a, b) else f"{path}: python {a!r}, parley {b!r}"


def verify(out):
    sys.path.insert(0, out)
    classes = {"parley.test.Everything": importlib.import_module("oracle_test_pb2").Everything,
               "parley.test2.WithGroups": importlib.import_module("oracle_groups_pb2").WithGroups}
    with open(os.path.join(out, "cases.json")) as handle:
        cases = json.load(handle)
    with open(os.path.join(out, "results.json")) as handle:
        results = json.load(handle)
    if len(cases) != len(results):
        sys.exit(f"{len(results)} results for {len(cases)} cases")
    decoded = encoded = 0
    failures = []
    for index, (case, result) in enumerate(zip(cases, results)):
        if same(case["json"], result["json"]):
            decoded += 1
        elif len(failures) < 12:
            failures.append(f"case {index} decode: {difference(case['json'], result['json'])}")
        message_class = classes[case["type"]]
        original = message_class.FromString(base64.b64decode(case["wire"]))
        try:
            reparsed = message_class.FromString(base64.b64decode(result["wire"]))
            ok = reparsed == original or same(to_dict(reparsed), to_dict(original))
        except Exception as error:  # a parse failure is a mismatch, reported below
            ok = False
            reparsed = error
        if ok:
            encoded += 1
        elif len(failures) < 10:
            failures.append(f"case {index} encode: {result['wire']}\n  reparsed {reparsed}\n  original {original}")
    groups = sum(1 for case in cases if case["type"] == "parley.test2.WithGroups")
    print(f"protobuf oracle: decode {decoded}/{len(cases)} equal to MessageToDict; "
          f"encode {encoded}/{len(cases)} parse back equal ({groups} of them proto2 messages with groups)")
    for failure in failures:
        print(failure)
    sys.exit(0 if decoded == encoded == len(cases) else 1)


if __name__ == "__main__":
    if sys.argv[1] == "generate":
        generate(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "verify":
        verify(sys.argv[2])
    else:
        sys.exit(__doc__)
