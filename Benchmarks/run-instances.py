"""Several instances on one PostgreSQL, beside the SQLite and memory stores, in one run.

For each configuration — memory, SQLite, PostgreSQL with 1 instance (direct and through nginx),
2 and 3 instances behind nginx round-robin, and 3 with each session kept on one instance
(nginx's consistent hash on the session id) — wrk runs push/pop (POST push and pop in turn, one
session per connection) and GET state (one session) and the table gives requests per second,
latency, and CPU per request of the instances, of PostgreSQL (every backend, the WAL writer,
the checkpointer) and of nginx, read from /proc before and after each run. pgbench runs on the
same cluster as a yardstick (its built-in simple-update and select-only scripts). All of it on
one machine: compare ratios within a run, and see BENCHMARKS.md for what they project.

    .venv/bin/python Benchmarks/run-instances.py                  # about 5 minutes after the build
    DURATION=5 ROUNDS=1 .venv/bin/python Benchmarks/run-instances.py   # a smoke run

Settings (environment): DURATION (10, seconds per run), WARMUP (2), ROUNDS (1; medians over
rounds), CONNECTIONS (64), SERVER_THREADS (2), MINERVA_BIN (a binary to measure instead of
building the working tree's). Raw output goes to Benchmarks/.build/instances-results/<time>/.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# The app every figure was taken with: one tab bar (the built-in demo app before root flows).
TABS = ROOT / "tests" / "live" / "apps" / "tabs.json"
sys.path.insert(0, str(ROOT / "tests" / "live"))
from postgres import PostgresCluster  # noqa: E402  (the test command's private cluster)
from nginx import Nginx  # noqa: E402  (the live tests' nginx, with deploy/nginx/minerva.conf)
from conftest import EventStream, RunningServer, Session  # noqa: E402

DURATION = int(os.environ.get("DURATION", "10"))
WARMUP = int(os.environ.get("WARMUP", "2"))
ROUNDS = int(os.environ.get("ROUNDS", "1"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "64"))
SERVER_THREADS = os.environ.get("SERVER_THREADS", "2")
TICK = os.sysconf("SC_CLK_TCK")
RESULTS = HERE / ".build" / "instances-results" / time.strftime("%Y%m%d-%H%M%S")


def cpu_seconds(pids):
    """User + system CPU of these processes so far (those that ended count 0)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError):
            pass
    return total / TICK


def children(pid):
    """A process and its children (nginx's workers)."""
    found = [pid]
    for entry in Path("/proc").iterdir():
        try:
            if f"\nPPid:\t{pid}\n" in (entry / "status").read_text():
                found.append(int(entry.name))
        except (OSError, ValueError):
            continue
    return found


def make_sessions(url, count):
    """Creates `count` sessions through `url`; returns the sessions file wrk's scripts read."""
    lines = []
    for _ in range(count):
        request = urllib.request.Request(url + "/v1/sessions", data=b"{}", method="POST")
        with urllib.request.urlopen(request, timeout=10) as answer:
            document = json.loads(answer.read())
        lines.append(f"{document['id']} {document['token']}\n")
    path = Path(tempfile.mkstemp(prefix="sessions-", suffix=".txt", dir=RESULTS)[1])
    path.write_text("".join(lines))
    return path


def wrk(url, script, sessions, seconds, log_name):
    environment = dict(os.environ, SESSIONS_FILE=str(sessions), WRK_THREADS="2")
    output = subprocess.run(
        ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency", "-s", str(HERE / "wrk" / script), url],
        capture_output=True, text=True, env=environment, timeout=seconds + 60, check=True).stdout
    (RESULTS / log_name).write_text(output)
    match = re.search(r"WRK_RESULT (.*)", output)
    fields = dict(part.split("=") for part in match.group(1).split())
    errors = sum(int(value) for key, value in fields.items() if key.startswith("errors_"))
    return float(fields["rps"]), int(fields["p50_us"]), int(fields["p99_us"]), errors


class Configuration:
    """Instances on one store, reached directly (one instance) or through nginx."""

    def __init__(self, name, store, instances, through_nginx, by_session=False):
        self.name, self.store = name, store
        self.instances_count, self.through_nginx, self.by_session = instances, through_nginx, by_session

    def __enter__(self):
        arguments = ["--store", self.store, "--threads", SERVER_THREADS, "--rate-limit", "0", "--log-level", "notice", "--app", str(TABS)]
        self.instances = [RunningServer(*arguments) for _ in range(self.instances_count)]
        self.nginx = Nginx(self.instances, by_session=self.by_session) if self.through_nginx else None
        self.url = self.nginx.url if self.nginx else self.instances[0].url
        return self

    def server_pids(self):
        return [instance.process.pid for instance in self.instances]

    def nginx_pids(self):
        return children(self.nginx.process.pid) if self.nginx else []

    def __exit__(self, *exception):
        if self.nginx:
            self.nginx.stop()
        for instance in self.instances:
            instance.stop()


def measure(configuration, cluster, scenario):
    script = {"push-pop": "push_pop.lua", "get": "get_state.lua"}[scenario]
    sessions = make_sessions(configuration.url, CONNECTIONS)
    label = f"{configuration.name}-{scenario}".replace(" ", "_")
    wrk(configuration.url, script, sessions, WARMUP, f"{label}-warmup.txt")
    rows = []
    for round_index in range(ROUNDS):
        database = cluster.processes() if cluster and configuration.store.startswith("postgres") else []
        pids = (configuration.server_pids(), database, configuration.nginx_pids())
        before = [cpu_seconds(group) for group in pids]
        rps, p50, p99, errors = wrk(configuration.url, script, sessions, DURATION, f"{label}-{round_index}.txt")
        # the database's backends are the instances' connections: read them again, as some may be new
        pids = (pids[0], cluster.processes() if database else [], pids[2])
        after = [cpu_seconds(group) for group in pids]
        requests = rps * DURATION
        rows.append((rps, p50, p99, errors, *[(b - a) / requests * 1e6 for a, b in zip(before, after)]))
    return [statistics.median(column) for column in zip(*rows)]


def pgbench(cluster, database, mode, clients=8):
    """pgbench's built-in script `mode` for DURATION seconds: (transactions/s, database CPU µs each)."""
    binary = str(cluster.bin / "pgbench")
    base = ["-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres"]
    subprocess.run([binary, *base, "-i", "-q", "-s", "10", database], capture_output=True, check=True, timeout=600)
    before = cpu_seconds(cluster.processes())
    output = subprocess.run(
        [binary, *base, "-b", mode, "-c", str(clients), "-j", "2", "-T", str(DURATION), database],
        capture_output=True, text=True, check=True, timeout=DURATION + 120).stdout
    after = cpu_seconds(cluster.processes())
    (RESULTS / f"pgbench-{mode}.txt").write_text(output)
    tps = float(re.search(r"tps = ([\d.]+)", output).group(1))
    return tps, (after - before) / (tps * DURATION) * 1e6


def delivery(cluster, changes=300):
    """How long after instance B acknowledged a change an event stream on instance A has its
    event: milliseconds at p50, p99 and max over `changes` push and pop changes made one by one."""
    cluster.sql("CREATE DATABASE delivery", database="postgres")
    arguments = ["--store", cluster.url("delivery"), "--threads", SERVER_THREADS, "--rate-limit", "0", "--log-level", "notice", "--app", str(TABS)]
    a, b = RunningServer(*arguments), RunningServer(*arguments)
    try:
        session = a.create_session()
        stream = EventStream(session)
        on_b = Session(b, session.id, session.token, session.state)
        waits = []
        for index in range(changes):
            if index % 2 == 0:
                on_b.op("push", {"screen": "profile", "params": {"userId": str(index)}})
            else:
                on_b.op("pop")
            answered = time.perf_counter()
            assert len(stream.read_events(index + 1)) == index + 1, "an event did not arrive"
            waits.append((time.perf_counter() - answered) * 1000)
        stream.close()
    finally:
        a.stop()
        b.stop()
    waits.sort()
    return waits[len(waits) // 2], waits[int(len(waits) * 0.99) - 1], waits[-1]


def main():
    RESULTS.mkdir(parents=True, exist_ok=True)
    if not os.environ.get("MINERVA_BIN"):
        # conftest's RunningServer starts MINERVA_BIN, else this build
        subprocess.run([str(ROOT / "scripts" / "build.sh")], check=True, stdout=subprocess.DEVNULL)
    if subprocess.run(["which", "wrk"], capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True, stdout=subprocess.DEVNULL)
    table = []
    with PostgresCluster.create() as cluster:
        configurations = [
            ("memory", "memory", 1, False),
            ("SQLite", f"sqlite:{RESULTS}/bench.sqlite", 1, False),
            ("PostgreSQL ×1", None, 1, False),
            ("PostgreSQL ×1 + nginx", None, 1, True),
            ("PostgreSQL ×2 + nginx", None, 2, True),
            ("PostgreSQL ×3 + nginx", None, 3, True),
            ("PostgreSQL ×3 + nginx by session", None, 3, True),
        ]
        for index, (name, store, instances, through_nginx) in enumerate(configurations):
            if store is None:
                database = f"bench{index}"
                cluster.sql(f"CREATE DATABASE {database}", database="postgres")
                store = cluster.url(database)
            for scenario in ("push-pop", "get"):
                with Configuration(name, store, instances, through_nginx, by_session="by session" in name) as configuration:
                    print(f"run-instances: {name}, {scenario}", file=sys.stderr)
                    table.append((name, scenario, *measure(configuration, cluster, scenario)))
        print("run-instances: delivery across instances", file=sys.stderr)
        latency = delivery(cluster)
        cluster.sql("CREATE DATABASE pgbench", database="postgres")
        yardsticks = [(mode, *pgbench(cluster, "pgbench", mode)) for mode in ("simple-update", "select-only")]

    lines = [
        f"{CONNECTIONS} connections, {DURATION} s per run, {ROUNDS} round(s), {SERVER_THREADS} server threads per instance, "
        f"everything on this machine ({os.cpu_count()} cores).",
        "",
        "| configuration | scenario | req/s | p50 ms | p99 ms | errors | instances' CPU µs/req | PostgreSQL CPU µs/req | nginx CPU µs/req |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, scenario, rps, p50, p99, errors, server, database, proxy in table:
        lines.append(
            f"| {name} | {scenario} | {rps:,.0f} | {p50 / 1000:.2f} | {p99 / 1000:.2f} | {errors:.0f} | {server:.0f} | "
            f"{database:.0f} | {proxy:.0f} |")
    lines += ["", "| pgbench (8 clients) | transactions/s | PostgreSQL CPU µs/transaction |", "| --- | ---: | ---: |"]
    for mode, tps, database in yardsticks:
        lines.append(f"| {mode} | {tps:,.0f} | {database:.0f} |")
    lines += [
        "",
        "Delivery across instances (an event stream on instance A, 300 changes made one by one through B, "
        "from B's answer to the event on A): "
        f"p50 {latency[0]:.2f} ms, p99 {latency[1]:.2f} ms, max {latency[2]:.2f} ms.",
    ]
    write_report(lines)


def write_report(lines):
    """Prints the table's lines and keeps them in RESULTS/table.md beside the raw output."""
    report = "\n".join(lines) + "\n"
    (RESULTS / "table.md").write_text(report)
    print(report)
    print(f"raw output: {RESULTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
