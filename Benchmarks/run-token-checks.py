#!/usr/bin/env python3
"""What a wrong token costs, by whether its session id exists: the median time of REQUESTS (1,500)
keep-alive `GET /v1/sessions/{id}` with a wrong token, for an id held in memory, an id in the
store but not in memory (after a restart), and an unknown id, on the SQLite store; then PAIRS
(2,000) alternating pairs of the last two, a known id not in memory and an unknown one, one right
after the other (which goes first alternates too), so that the machine's drift falls on both
alike: their medians, the median of each pair's difference, and how often the unknown id was the
faster. They should be close: an answer's time must not tell whether an id exists.

    python3 Benchmarks/run-token-checks.py [MINERVA_BIN]     # default: .build/release/minerva-server
"""
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BINARY = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build/release/minerva-server")
REQUESTS = int(os.environ.get("REQUESTS", "1500"))
PAIRS = int(os.environ.get("PAIRS", "2000"))
WRONG = "Bearer " + "x" * 43


def start(store):
    process = subprocess.Popen([BINARY, "--port", "0", "--threads", "2", "--rate-limit", "0", "--store", store],
                               stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if match:
            return process, int(match.group(1))
    raise RuntimeError("the server did not start")


def wrong_token(connection, session_id):
    """One keep-alive GET with a wrong token: its time in ns."""
    began = time.perf_counter_ns()
    connection.request("GET", f"/v1/sessions/{session_id}", headers={"Authorization": WRONG})
    response = connection.getresponse()
    response.read()
    elapsed = time.perf_counter_ns() - began
    assert response.status == 401, response.status
    return elapsed


def median_microseconds(port, session_id):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    times = [wrong_token(connection, session_id) for _ in range(REQUESTS + 100)]
    return statistics.median(times[100:]) / 1000


def alternating_pairs(port, known, unknown):
    """(median known, median unknown, median of the pairs' differences, share of pairs where the
    unknown id answered first), in µs, over PAIRS pairs after 100 of warm-up."""
    connection = http.client.HTTPConnection("127.0.0.1", port)
    pairs = []
    for index in range(PAIRS + 100):
        if index % 2:
            unknown_time = wrong_token(connection, unknown)
            known_time = wrong_token(connection, known)
        else:
            known_time = wrong_token(connection, known)
            unknown_time = wrong_token(connection, unknown)
        pairs.append((known_time / 1000, unknown_time / 1000))
    pairs = pairs[100:]
    return (statistics.median(k for k, _ in pairs), statistics.median(u for _, u in pairs),
            statistics.median(k - u for k, u in pairs), sum(u < k for k, u in pairs) / len(pairs))


def main():
    with tempfile.TemporaryDirectory() as folder:
        store = f"sqlite:{folder}/tokens.sqlite"
        process, port = start(store)
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port)
            ids = []
            for _ in range(2):
                connection.request("POST", "/v1/sessions", body="{}", headers={"Content-Type": "application/json"})
                ids.append(json.loads(connection.getresponse().read())["id"])
            in_memory = median_microseconds(port, ids[0])
        finally:
            process.terminate()
            process.wait()
        process, port = start(store)
        try:
            # ids[1] was never used since the restart: it is in the store, not in memory.
            stored = median_microseconds(port, ids[1])
            unknown = median_microseconds(port, "s_" + "A" * 22)
            pairs = alternating_pairs(port, ids[1], "s_" + "B" * 22)
        finally:
            process.terminate()
            process.wait()
    print(f"wrong token, median of {REQUESTS} keep-alive requests (µs): known id in memory {in_memory:.1f}, "
          f"known id not in memory {stored:.1f}, unknown id {unknown:.1f}")
    print(f"largest difference: {max(in_memory, stored, unknown) - min(in_memory, stored, unknown):.1f} µs")
    known, unknown, difference, unknown_first = pairs
    print(f"{PAIRS} alternating pairs (µs): known id not in memory {known:.1f}, unknown id {unknown:.1f}, "
          f"median difference {difference:+.1f}, the unknown id faster in {unknown_first:.0%} of pairs")


main()
