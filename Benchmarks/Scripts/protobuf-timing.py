"""Google's side of BenchReport's protobuf rows: compiles the test schema with grpcio-tools' protoc, then times
ParseFromString + json_format.MessageToDict of parley.test.Repeated on one file, one warm-up, then RUNS calls,
printing `parse_to_dict SECONDS` per call: the thread's CPU time (CLOCK=cpu) or wall-clock time (CLOCK=wall).

Usage: protobuf-timing.py RESOURCES FILE RUNS cpu|wall
"""
import importlib
import os
import sys
import tempfile
import time

import grpc_tools
from google.protobuf import json_format
from grpc_tools import protoc

resources, path, runs, clock = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
now = time.thread_time if clock == "cpu" else time.perf_counter
out = tempfile.mkdtemp()
include = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
if protoc.main(["protoc", f"-I{resources}", f"-I{include}", f"--python_out={out}",
                os.path.join(resources, "oracle_test.proto")]) != 0:
    sys.exit("protoc failed")
sys.path.insert(0, out)
module = importlib.import_module("oracle_test_pb2")
with open(path, "rb") as f:
    data = f.read()
json_format.MessageToDict(module.Repeated.FromString(data))
for _ in range(runs):
    start = now()
    message = module.Repeated()
    message.ParseFromString(data)
    json_format.MessageToDict(message)
    print("parse_to_dict", now() - start)
