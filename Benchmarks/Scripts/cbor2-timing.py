"""cbor2's side of BenchReport's CBOR rows: times cbor2.loads and cbor2.dumps (its C extension) on
one CBOR file, one warm-up each, then RUNS calls of each, printing `loads SECONDS` / `dumps SECONDS`
per call: the thread's CPU time (CLOCK=cpu) or wall-clock time (CLOCK=wall).

Usage: cbor2-timing.py FILE RUNS cpu|wall
"""
import sys
import time

import cbor2
from cbor2 import _cbor2  # noqa: F401  - fails without the C extension: the rows compare against it

path, runs, clock = sys.argv[1], int(sys.argv[2]), sys.argv[3]
now = time.thread_time if clock == "cpu" else time.perf_counter
with open(path, "rb") as f:
    data = f.read()
value = cbor2.loads(data)
cbor2.dumps(value)
for _ in range(runs):
    start = now()
    cbor2.loads(data)
    print("loads", now() - start)
for _ in range(runs):
    start = now()
    cbor2.dumps(value)
    print("dumps", now() - start)
