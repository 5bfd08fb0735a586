"""What a change costs on each store, with every session in play: push/pop on the memory store,
SQLite, one PostgreSQL instance, and three behind nginx (round-robin, and each session kept on one
instance by deploy/nginx's consistent hash), this build beside REF's.

For each configuration wrk runs push_pop.lua over SESSIONS sessions (512) on CONNECTIONS
connections (64), which sends every session its share in turn; a run whose sessions' shares are
not all within 10% of the mean (or one request) fails. The table gives requests per second, the CPU each mutation
costs the instances and PostgreSQL (every backend, the WAL writer, the checkpointer: read from /proc
before and after), and the statements each mutation sends PostgreSQL (pg_stat_statements, top-level
statements only: each is a round trip; analytics included, as they are on). Analytics are on, as
by default. Everything runs on this machine: compare ratios within a run.

    .venv/bin/python Benchmarks/run-store-cost.py              # about 8 minutes after the builds
    DURATION=3 ROUNDS=1 .venv/bin/python Benchmarks/run-store-cost.py   # a smoke run

Settings (environment): DURATION (10, seconds per run), WARMUP (3), ROUNDS (3, alternating; medians),
SESSIONS (512), CONNECTIONS (64), SERVER_THREADS (2), WRK_THREADS (1), REF (f5e4e75, the build before a group's
writes went in one call; empty: none), MINERVA_BIN (a binary to measure instead of building the
working tree's). REF is built once in Benchmarks/.build/ref-REF. Raw output goes to
Benchmarks/.build/store-cost-results/<time>/.
"""
import importlib.util
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests" / "live"))
import conftest  # noqa: E402  (RunningServer starts conftest.BINARY)
from postgres import PostgresCluster  # noqa: E402  (the test command's private cluster)

# run-instances.py's deployments, sessions and CPU readings, shared rather than written twice.
_spec = importlib.util.spec_from_file_location("run_instances", HERE / "run-instances.py")
instances = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(instances)

DURATION = int(os.environ.get("DURATION", "10"))
WARMUP = int(os.environ.get("WARMUP", "3"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
SESSIONS = int(os.environ.get("SESSIONS", "512"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "64"))
SERVER_THREADS = os.environ.get("SERVER_THREADS", "2")
# One wrk thread: one queue over every session, so that each gets its share (two threads each
# take half the sessions, and one running ahead of the other skews the shares).
WRK_THREADS = os.environ.get("WRK_THREADS", "1")
REF = os.environ.get("REF", "f5e4e75")
TICK = os.sysconf("SC_CLK_TCK")
RESULTS = HERE / ".build" / "store-cost-results" / time.strftime("%Y%m%d-%H%M%S")


def log(message):
    print(f"run-store-cost: {message}", file=sys.stderr, flush=True)


def builds():
    """{name: binary}: this working tree's release build, and REF's (built once)."""
    found = {}
    if os.environ.get("MINERVA_BIN"):
        found["this build"] = Path(os.environ["MINERVA_BIN"])
    else:
        log("building this working tree (scripts/build.sh)")
        subprocess.run([str(ROOT / "scripts" / "build.sh")], check=True, stdout=subprocess.DEVNULL)
        found["this build"] = ROOT / ".build" / "release" / "minerva-server"
    if REF:
        binary = HERE / ".build" / f"ref-{REF}" / "release" / "minerva-server"
        if not binary.exists():
            log(f"building {REF} (once)")
            worktree = HERE / ".build" / f"ref-{REF}-src"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(worktree), REF], capture_output=True)
            try:
                subprocess.run(
                    ["swift", "build", "-c", "release", "--package-path", str(worktree), "--scratch-path", str(HERE / ".build" / f"ref-{REF}"),
                     "--product", "minerva-server"], check=True, stdout=subprocess.DEVNULL)
            finally:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)], capture_output=True)
        found[REF] = binary
    return found


def counting_cluster():
    """A private cluster that counts statements (pg_stat_statements, loaded at start)."""
    cluster = PostgresCluster.create()
    with open(cluster.data / "postgresql.conf", "a") as conf:
        conf.write("shared_preload_libraries = 'pg_stat_statements'\n")
    cluster.stop("fast")
    cluster.start()
    return cluster


def statements(cluster, database):
    """The top-level statements PostgreSQL has run in `database` so far (pg_stat_statements' own reads aside)."""
    rows = cluster.sql(
        "SELECT COALESCE(sum(calls), 0) FROM pg_stat_statements JOIN pg_database d ON d.oid = dbid "
        f"WHERE d.datname = '{database}' AND query NOT LIKE '%pg_stat_statements%'", database=database)
    return int(rows[0][0])


def wrk(url, sessions, seconds, log_name, checked=True):
    """push_pop.lua for `seconds`: (req/s, errors); when `checked`, fails if a session's share is
    off the mean by more than 10% (or one request)."""
    environment = dict(os.environ, SESSIONS_FILE=str(sessions), WRK_THREADS=WRK_THREADS)
    output = subprocess.run(
        ["wrk", f"-t{WRK_THREADS}", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency", "-s", str(HERE / "wrk" / "push_pop.lua"), url],
        capture_output=True, text=True, env=environment, timeout=seconds + 60, check=True).stdout
    (RESULTS / log_name).write_text(output)
    fields = dict(part.split("=") for part in re.search(r"WRK_RESULT (.*)", output).group(1).split())
    errors = sum(int(value) for key, value in fields.items() if key.startswith("errors_"))
    spread = dict(part.split("=") for part in re.search(r"WRK_SPREAD (.*)", output).group(1).split())
    mean, low, high = float(spread["mean"]), float(spread["min"]), float(spread["max"])
    log(f"  {log_name}: {float(fields['rps']):,.0f} req/s, {spread['sessions']} sessions, each {low:.0f}–{high:.0f} requests (mean {mean:.1f})")
    # a short run gives each session a few requests: a share is then within one request of the mean
    margin = max(0.1 * mean, 1)
    if checked and (int(spread["sessions"]) != SESSIONS or low < mean - margin or high > mean + margin):
        raise SystemExit(f"run-store-cost: {log_name}: a session's share is not within 10% of the mean: {spread}")
    return float(fields["rps"]), errors


def measure(cluster, name, build, binary, kind, count, round_index):
    """One run of `count` instances of `binary`: (req/s, errors, instances' µs/mutation, PostgreSQL's
    µs/mutation, statements/mutation)."""
    label = f"{name}-{build}-{round_index}".replace(" ", "_").replace("×", "x")
    database = None
    if kind == "memory":
        store = "memory"
    elif kind == "sqlite":
        store = f"sqlite:{RESULTS}/{label}.sqlite"
    else:
        database = re.sub(r"[^a-z0-9_]", "_", label.lower())
        cluster.sql(f'CREATE DATABASE "{database}"', database="postgres")
        cluster.sql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements", database=database)
        store = cluster.url(database)
    conftest.BINARY = binary
    with instances.Configuration(name, store, count, count > 1, by_session="by session" in name) as configuration:
        sessions = instances.make_sessions(configuration.url, SESSIONS)
        wrk(configuration.url, sessions, WARMUP, f"{label}-warmup.txt", checked=False)
        servers = configuration.server_pids()
        reading = lambda: (instances.cpu_seconds(servers), instances.cpu_seconds(cluster.processes()) if database else 0,
                           statements(cluster, database) if database else 0)
        before = reading()
        rps, errors = wrk(configuration.url, sessions, DURATION, f"{label}.txt")
        after = reading()
    mutations = rps * DURATION
    return (rps, errors, (after[0] - before[0]) / mutations * 1e6, (after[1] - before[1]) / mutations * 1e6,
            (after[2] - before[2]) / mutations if database else 0)


def main():
    RESULTS.mkdir(parents=True, exist_ok=True)
    instances.RESULTS = RESULTS
    if subprocess.run(["which", "wrk"], capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True, stdout=subprocess.DEVNULL)
    binaries = builds()
    runs = [("memory", "this build", "memory", 1), ("SQLite", "this build", "sqlite", 1)]
    for build in binaries:
        runs += [("PostgreSQL ×1", build, "postgres", 1), ("PostgreSQL ×3 round-robin", build, "postgres", 3),
                 ("PostgreSQL ×3 by session", build, "postgres", 3)]
    figures = {run: [] for run in runs}
    with counting_cluster() as cluster:
        for round_index in range(ROUNDS):
            for run in runs:
                name, build, kind, count = run
                log(f"round {round_index + 1}: {name}, {build}")
                figures[run].append(measure(cluster, name, build, binaries[build], kind, count, round_index))
    medians = {run: [statistics.median(column) for column in zip(*rows)] for run, rows in figures.items()}
    lines = [
        f"push/pop, {SESSIONS} sessions each with its share within 10% of the mean, {CONNECTIONS} connections, "
        f"{DURATION} s per run, medians of {ROUNDS} alternating rounds, {SERVER_THREADS} server threads per instance, "
        f"analytics on, everything on this machine ({os.cpu_count()} cores).",
        "",
        "| store | build | req/s | errors | instances' CPU µs/mutation | PostgreSQL CPU µs/mutation | together | statements/mutation |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for (name, build, kind, _), (rps, errors, server, database, sent) in medians.items():
        lines.append(
            f"| {name} | {build} | {rps:,.0f} | {errors:.0f} | {server:.0f} | {database:.0f} | {server + database:.0f} | "
            + (f"{sent:.2f} |" if kind == "postgres" else "– |"))
    this = {name: figures for (name, build, _, _), figures in medians.items() if build == "this build"}
    one, three, pinned = this["PostgreSQL ×1"], this["PostgreSQL ×3 round-robin"], this["PostgreSQL ×3 by session"]
    lines += [
        "",
        f"This build: PostgreSQL/SQLite req/s {one[0] / this['SQLite'][0]:.2f}×, SQLite/memory {this['SQLite'][0] / this['memory'][0]:.2f}×, "
        f"three instances' CPU per mutation / one's {(three[2] + three[3]) / (one[2] + one[3]):.2f}× round-robin, "
        f"{(pinned[2] + pinned[3]) / (one[2] + one[3]):.2f}× by session.",
    ]
    report = "\n".join(lines) + "\n"
    (RESULTS / "table.md").write_text(report)
    print(report)
    log(f"raw output: {RESULTS}")


if __name__ == "__main__":
    main()
