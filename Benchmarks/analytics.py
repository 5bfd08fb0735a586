#!/usr/bin/env python3
"""What flow analytics cost, and how fast its funnel answers: `Benchmarks/analytics.py [PHASE …]`.

Phases (all by default), against the release binary (scripts/build.sh):

  instructions  instructions per push/pop with recording on and off (valgrind's cachegrind over
                the whole process: the request, the recorder and its writer thread), memory and
                SQLite stores: runs of 500 and 2,500 mutations, the difference divided by 2,000
  throughput    push/pop requests per second with --analytics on and off (wrk, Benchmarks/wrk/
                push_pop.lua, 64 connections on 64 sessions, ROUNDS rounds of DURATION, alternating)
  aging         CPU and resident memory per request as sessions age: one server per store (memory,
                SQLite), analytics on, push/pop through wrk on the same 32 sessions (32
                connections) for AGING_WINDOWS windows of AGING_WINDOW seconds back to back; per
                window the server's CPU µs per request (/proc utime+stime) and its RSS, and the
                last window against the first (flat: within 10%)
  funnel        fills an SQLite store with EVENTS stored events (push/pop through wrk, on 10
                groups of 64 sessions in turn), restarts the server on it, then times the funnel over every path
                (home,profile,followers: the worst case, as no session reaches followers and
                every path is read to its end) and the screens report, cold and warm

Environment: ROUNDS (3), DURATION (10), EVENTS (1000000), SERVER_THREADS (2), FUNNEL_STORE (a
postgres:// URL of an empty database to fill instead of a new SQLite file), AGING_WINDOWS (10),
AGING_WINDOW (30: ten windows make the 5-minute run), AGING_STORES ("memory sqlite").
"""
import http.client
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BINARY = ROOT / ".build" / "release" / "minerva-server"
# The app every figure was taken with: one tab bar (the built-in demo app before root flows).
TABS = ROOT / "tests" / "live" / "apps" / "tabs.json"
WRK = ROOT / "Benchmarks" / "wrk" / "push_pop.lua"
ADMIN = "benchmark-admin"
ROUNDS = int(os.environ.get("ROUNDS", "3"))
DURATION = int(os.environ.get("DURATION", "10"))
EVENTS = int(os.environ.get("EVENTS", "1000000"))
THREADS = os.environ.get("SERVER_THREADS", "2")


class Server:
    def __init__(self, *arguments, wrapper=(), binary=BINARY):
        self.process = subprocess.Popen(
            [*wrapper, str(binary), "--port", "0", "--rate-limit", "0", "--threads", THREADS, "--admin-token", ADMIN, "--app", str(TABS), *arguments],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "SWIFT_DETERMINISTIC_HASHING": "1"})
        self.log = []
        for line in self.process.stdout:
            self.log.append(line)
            match = re.search(r"listening on (http://[^\s\"]+)", line)
            if match:
                self.url = match.group(1)
                break
        else:
            raise RuntimeError("the server did not start: " + "".join(self.log))
        address = urllib.parse.urlsplit(self.url)
        self.connection = http.client.HTTPConnection(address.hostname, address.port, timeout=600)

    def request(self, method, path, body=None, token=None):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = "Bearer " + token
        self.connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = self.connection.getresponse()
        payload = response.read()
        assert response.status in (200, 201), (method, path, response.status, payload[:200])
        return json.loads(payload) if payload.startswith(b"{") else payload.decode()

    def stop(self):
        self.connection.close()
        self.process.send_signal(signal.SIGTERM)
        rest = self.process.communicate(timeout=600)[0]
        return "".join(self.log) + rest


def push_pops(server, count):
    session = server.request("POST", "/v1/sessions", {})
    for index in range(count):
        name = "push" if index % 2 == 0 else "pop"
        body = {"screen": "profile", "params": {"userId": "1"}} if name == "push" else {}
        server.request("POST", f"/v1/sessions/{session['id']}/{name}", body, session["token"])
    server.request("GET", "/v1/admin/analytics/screens", token=ADMIN)   # waits for the recorder's writes


def instructions():
    print("== instructions per push/pop (cachegrind, whole process)")
    # valgrind 3.19 cannot read the DWARF 5 that swiftc writes: a copy without debug info runs.
    stripped = Path(tempfile.mkdtemp(prefix="minerva-stripped-")) / "minerva-server"
    subprocess.run(["strip", "--strip-debug", "-o", str(stripped), str(BINARY)], check=True)
    results = {}
    for store in ("memory", "sqlite"):
        for analytics in ("off", "on"):
            counts = []
            for mutations in (500, 2500):
                folder = tempfile.mkdtemp(prefix="minerva-analytics-")
                try:
                    store_argument = "memory" if store == "memory" else f"sqlite:{folder}/minerva.sqlite"
                    server = Server("--store", store_argument, "--analytics", analytics,
                                    wrapper=("valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={folder}/out"),
                                    binary=stripped)
                    push_pops(server, mutations)
                    output = server.stop()
                    refs = re.search(r"I\s+refs:\s+([\d,]+)", output)
                    counts.append(int(refs.group(1).replace(",", "")))
                finally:
                    shutil.rmtree(folder, ignore_errors=True)
            per = (counts[1] - counts[0]) / 2000
            results[(store, analytics)] = per
            print(f"  {store:6} analytics {analytics:3}: {per / 1000:7.1f} k instructions per mutation")
        on, off = results[(store, "on")], results[(store, "off")]
        print(f"  {store:6} recording costs {(on - off) / 1000:.1f} k instructions per mutation ({(on - off) / off * 100:+.0f}%)")
    shutil.rmtree(stripped.parent, ignore_errors=True)


def make_sessions(server, count, path):
    subprocess.run([sys.executable, str(ROOT / "Benchmarks" / "make-sessions.py"), server.url, str(count), path], check=True)


def wrk(server, sessions_file, seconds, connections=64):
    output = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", str(WRK), server.url],
        env={**os.environ, "WRK_THREADS": "2", "SESSIONS_FILE": sessions_file}, capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", output)
    scale = {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
    assert "starved=0 unmatched=0" in output, output
    return rate, float(p99.group(1)) * scale


def throughput():
    print(f"== push/pop throughput, 64 connections, {ROUNDS} rounds of {DURATION} s (alternating)")
    for store in ("memory", "sqlite"):
        figures = {"on": [], "off": []}
        for _ in range(ROUNDS):
            for analytics in ("on", "off"):
                folder = tempfile.mkdtemp(prefix="minerva-analytics-")
                try:
                    store_argument = "memory" if store == "memory" else f"sqlite:{folder}/minerva.sqlite"
                    server = Server("--store", store_argument, "--analytics", analytics)
                    make_sessions(server, 64, f"{folder}/sessions.txt")
                    wrk(server, f"{folder}/sessions.txt", 2)                  # warm-up
                    figures[analytics].append(wrk(server, f"{folder}/sessions.txt", DURATION))
                    server.stop()
                finally:
                    shutil.rmtree(folder, ignore_errors=True)
        for analytics in ("off", "on"):
            rates = [rate for rate, _ in figures[analytics]]
            p99s = [p99 for _, p99 in figures[analytics]]
            print(f"  {store:6} analytics {analytics:3}: {statistics.median(rates):8.0f} req/s (median of {rates}), p99 {statistics.median(p99s):.2f} ms")
        ratio = statistics.median(r for r, _ in figures["on"]) / statistics.median(r for r, _ in figures["off"])
        print(f"  {store:6} with recording: {ratio:.2f}× the requests per second")


def events_stored(server):
    metrics = server.request("GET", "/metrics")
    return sum(int(float(value)) for value in re.findall(r'minerva_events_total\{type="(?:added|removed)"\} ([\d.]+)', metrics))


def timed(server, path, runs=5):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        server.request("GET", path, token=ADMIN)
        times.append(time.perf_counter() - started)
    return times


def funnel():
    store = os.environ.get("FUNNEL_STORE")
    print(f"== funnel query over {EVENTS:,} stored events ({'PostgreSQL' if store else 'SQLite'})")
    folder = tempfile.mkdtemp(prefix="minerva-analytics-")
    try:
        arguments = ("--store", store or f"sqlite:{folder}/minerva.sqlite")
        server = Server(*arguments)
        groups = 10
        for group in range(groups):
            make_sessions(server, 64, f"{folder}/sessions-{group}.txt")
        started = time.monotonic()
        rates = []
        for group in range(groups):
            # wrk uses a group's 64 sessions for about a tenth of the events
            while (stored := events_stored(server)) < EVENTS * (group + 1) // groups:
                rates.append(wrk(server, f"{folder}/sessions-{group}.txt", max(1, min(30, (EVENTS * (group + 1) // groups - stored) // 9000)))[0])
        size = "" if store else f"{os.path.getsize(f'{folder}/minerva.sqlite') / 2**20:.0f} MiB database, "
        print(f"  filled in {time.monotonic() - started:.0f} s: {stored:,} events by {groups * 64} sessions "
              f"({size}{statistics.median(rates):.0f} req/s while filling)")
        server.request("GET", "/v1/admin/analytics/screens", token=ADMIN)      # the recorder's writes end
        server.stop()
        server = Server(*arguments)
        query = "/v1/admin/analytics/funnel?steps=home,profile,followers&within=1d"
        funnel_times = timed(server, query)
        answer = server.request("GET", query, token=ADMIN)
        screens_times = timed(server, "/v1/admin/analytics/screens")
        server.stop()
        print(f"  funnel: first (cold) {funnel_times[0] * 1000:.0f} ms, then median {statistics.median(funnel_times[1:]) * 1000:.0f} ms; "
              f"steps {[step['sessions'] for step in answer['steps']]}")
        print(f"  screens: first {screens_times[0] * 1000:.1f} ms, then median {statistics.median(screens_times[1:]) * 1000:.1f} ms")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def process_figures(pid):
    """The process's CPU seconds in user space and in the kernel, and its resident memory in MiB."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    rss = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("VmRSS"))
    return int(fields[11]) / ticks, int(fields[12]) / ticks, rss / 1024


def aging():
    windows = int(os.environ.get("AGING_WINDOWS", "10"))
    window = int(os.environ.get("AGING_WINDOW", "30"))
    print(f"== aging: push/pop on the same 32 sessions, {windows} windows of {window} s, analytics on")
    for store in os.environ.get("AGING_STORES", "memory sqlite").split():
        folder = tempfile.mkdtemp(prefix="minerva-aging-")
        try:
            store_argument = "memory" if store == "memory" else f"sqlite:{folder}/minerva.sqlite"
            server = Server("--store", store_argument, "--log-level", "notice")
            make_sessions(server, 32, f"{folder}/sessions.txt")
            rows = []
            user, system, _ = process_figures(server.process.pid)
            for index in range(windows):
                output = subprocess.run(
                    ["wrk", "-t2", "-c32", f"-d{window}s", "-s", str(WRK), server.url],
                    env={**os.environ, "WRK_THREADS": "2", "SESSIONS_FILE": f"{folder}/sessions.txt"},
                    capture_output=True, text=True, check=True).stdout
                requests = int(re.search(r"(\d+) requests in", output).group(1))
                now_user, now_system, rss = process_figures(server.process.pid)
                per_user, per_system = (now_user - user) / requests * 1e6, (now_system - system) / requests * 1e6
                rows.append((requests, per_user + per_system, rss))
                user, system = now_user, now_system
                print(f"  {store:6} window {index + 1:2}: {requests / window:8.0f} req/s, {rows[-1][1]:5.1f} µs CPU per request "
                      f"({per_user:5.1f} user, {per_system:5.1f} kernel), RSS {rss:6.1f} MiB")
            first, last = rows[0], rows[-1]
            print(f"  {store:6} last window / first: CPU per request {last[1] / first[1]:.2f}×, RSS {last[2] / first[2]:.2f}×")
            server.stop()
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def main(phases):
    if not BINARY.exists():
        sys.exit(f"build the server first (scripts/build.sh): {BINARY} is missing")
    known = {"instructions": instructions, "throughput": throughput, "aging": aging, "funnel": funnel}
    for phase in phases or known:
        if phase not in known:
            sys.exit(__doc__)
        known[phase]()


if __name__ == "__main__":
    main(sys.argv[1:])
