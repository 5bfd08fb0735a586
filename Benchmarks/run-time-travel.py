"""What reading an earlier version costs, beside reading the current state, in one run.

For each store (memory, SQLite, PostgreSQL on a private cluster) one session makes MUTATIONS
changes (push and pop in turn, a list PUT every tenth), then `GET …/versions/{v}?lists=none` is
timed at several depths — the previous version, 10, 100, 500 and 1,000 back, and the oldest one kept — and
`GET …?lists=none` (the current state) as the peer. A version is rebuilt from the newest
checkpoint at or before it by replaying the events after it: from memory when the session's
in-memory log reaches back, else from the store. Medians and p99 over REPEAT reads each, over
one keep-alive connection; compare ratios within a run.

    .venv/bin/python Benchmarks/run-time-travel.py            # about a minute after the build
    MUTATIONS=300 REPEAT=50 .venv/bin/python Benchmarks/run-time-travel.py   # a smoke run

Settings (environment): MUTATIONS (1100, over the 1,000 events a session keeps), REPEAT (200),
MINERVA_BIN (a binary to measure instead of building the working tree's).
"""
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests" / "live"))
from postgres import PostgresCluster  # noqa: E402  (the test command's private cluster)
from conftest import RunningServer  # noqa: E402

MUTATIONS = int(os.environ.get("MUTATIONS", "1100"))
REPEAT = int(os.environ.get("REPEAT", "200"))
LIST = {"sections": [{"id": "s", "items": [{"id": f"i{i}", "kind": "row", "content": {"n": i}} for i in range(20)]}]}


class Connection:
    """One keep-alive HTTP connection to a session."""

    def __init__(self, server, session, token):
        host, port = server.url.split("//")[1].split(":")
        self.http = http.client.HTTPConnection(host, int(port), timeout=30)
        self.base = f"/v1/sessions/{session}"
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def call(self, method, path, body=None):
        self.http.request(method, self.base + path, json.dumps(body) if body is not None else None, self.headers)
        answer = self.http.getresponse()
        payload = answer.read()
        return answer.status, json.loads(payload) if payload else None

    def timed(self, path):
        """Milliseconds of each of REPEAT reads of `path`, which must answer 200."""
        times = []
        for _ in range(REPEAT):
            started = time.perf_counter()
            status, answer = self.call("GET", path)
            times.append((time.perf_counter() - started) * 1000)
            assert status == 200, (path, status, answer)
        return times


def measure(server):
    status, _, created = server.request("POST", "/v1/sessions", {})
    assert status == 201, created
    connection = Connection(server, created["id"], created["token"])
    for index in range(MUTATIONS):
        if index % 10 == 9:
            status, answer = connection.call("PUT", "/nodes/n1/list", LIST)
        elif index % 2 == 0:
            status, answer = connection.call("POST", "/push", {"screen": "profile", "params": {"userId": "1"}})
        else:
            status, answer = connection.call("POST", "/pop", {})
        assert status == 200, answer
    current = connection.call("GET", "?lists=none")[1]["version"]
    status, answer = connection.call("GET", "/versions/1")
    oldest = int(answer["error"]["message"].split("versions ")[-1].split(" ")[0]) if status == 404 else 1
    rows = [("current state", connection.timed("?lists=none"))]
    for label, version in (("previous version", current - 1), ("10 back", current - 10), ("100 back", current - 100),
                           ("500 back", current - 500), ("1,000 back", current - 1000), (f"oldest kept ({current - oldest} back)", oldest)):
        rows.append((label, connection.timed(f"/versions/{version}?lists=none")))
    return rows


def report(store, rows):
    peer = statistics.median(rows[0][1])
    print(f"\n{store}")
    print(f"| read | median ms | p99 ms | × current state |")
    print(f"|---|---|---|---|")
    for label, times in rows:
        ordered = sorted(times)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        print(f"| {label} | {statistics.median(times):.3f} | {p99:.3f} | {statistics.median(times) / peer:.1f} |")


def main():
    if not os.environ.get("MINERVA_BIN"):  # the live tests' RunningServer runs MINERVA_BIN, else the release build
        subprocess.run([str(ROOT / "scripts" / "build.sh")], check=True, stdout=subprocess.DEVNULL)
    # The app every figure was taken with: one tab bar (the built-in demo app before root flows).
    arguments = ("--rate-limit", "0", "--max-session-bytes", "1048576", "--max-sessions", "1000", "--app", str(Path(__file__).resolve().parents[1] / "tests/live/apps/tabs.json"))
    cluster = PostgresCluster.create()
    try:
        with tempfile.TemporaryDirectory() as folder:
            for store, option in (("memory", "memory"), ("SQLite", f"sqlite:{folder}/bench.sqlite"), ("PostgreSQL", cluster.url())):
                server = RunningServer(*arguments, "--store", option)
                try:
                    report(store, measure(server))
                finally:
                    server.stop()
    finally:
        cluster.cleanup()


if __name__ == "__main__":
    main()
