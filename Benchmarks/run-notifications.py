"""What announcing commits costs with 1 and 3 instances on one PostgreSQL: this build, which
announces each commit on its session's own channel and listens only on the channels of the
sessions followed there, beside REF, which announced every commit on one channel every instance
listened on — in one run, rounds alternating.

For each build and each deployment — 1 instance, 3 instances behind nginx round-robin, and 3
with every session followed by an event stream on the first instance — wrk runs push/pop (POST
push and pop in turn, one session per connection), and the table gives requests per second and
the CPU per mutation of the instances and of PostgreSQL (every backend, the WAL writer, the
checkpointer), read from /proc before and after each run. All of it on one machine: compare
ratios within a run.

    .venv/bin/python Benchmarks/run-notifications.py                  # about 10 minutes after the builds
    DURATION=4 ROUNDS=1 .venv/bin/python Benchmarks/run-notifications.py   # a smoke run

Settings (environment): REF (f123d2f, the last commit with one channel; built once in
Benchmarks/.build/ref-REF), DURATION (10, seconds per run), ROUNDS (3), CONNECTIONS (64),
SERVER_THREADS (2). Raw output goes to Benchmarks/.build/notifications-results/<time>/.
"""
import importlib.util
import os
import selectors
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests" / "live"))
import conftest  # noqa: E402  (RunningServer starts conftest.BINARY)
from conftest import EventStream, Session  # noqa: E402
from postgres import PostgresCluster  # noqa: E402

# run-instances.py's deployments, wrk runs and CPU readings, shared rather than written twice.
_spec = importlib.util.spec_from_file_location("run_instances", HERE / "run-instances.py")
instances = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(instances)

REF = os.environ.get("REF", "f123d2f")
ROUNDS = int(os.environ.get("ROUNDS", "3"))
RESULTS = HERE / ".build" / "notifications-results" / time.strftime("%Y%m%d-%H%M%S")
instances.RESULTS = RESULTS


def build(package, scratch, log):
    """A release build of minerva-server from `package` in `scratch`; the binary's path."""
    with open(log, "w") as output:
        subprocess.run(["swift", "build", "-c", "release", "--package-path", str(package), "--scratch-path", str(scratch),
                        "--product", "minerva-server"], stdout=output, stderr=subprocess.STDOUT, check=True)
    return Path(scratch) / "release" / "minerva-server"


def ref_binary():
    """REF's server, built once beside the other references of Benchmarks/.build."""
    scratch = HERE / ".build" / f"ref-{REF}"
    binary = scratch / "release" / "minerva-server"
    if binary.exists():
        return binary
    source = HERE / ".build" / f"ref-{REF}-src"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(source), REF], capture_output=True)
    try:
        return build(source, scratch, RESULTS / "ref-build.log")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(source)], capture_output=True)


class Followers:
    """An event stream on the first instance for every session in wrk's sessions file, read
    (and dropped) by a thread of its own as fast as the server writes."""

    def __init__(self, configuration, sessions):
        self.streams = []
        for line in Path(sessions).read_text().splitlines():
            session_id, token = line.split()
            self.streams.append(EventStream(Session(configuration.instances[0], session_id, token, {})))
        self.stopped = threading.Event()
        self.reader = threading.Thread(target=self.drain, daemon=True)
        self.reader.start()

    def drain(self):
        with selectors.DefaultSelector() as selector:
            for stream in self.streams:
                selector.register(stream.socket, selectors.EVENT_READ)
            while not self.stopped.is_set():
                for key, _ in selector.select(timeout=0.2):
                    if not key.fileobj.recv(65536):
                        selector.unregister(key.fileobj)

    def close(self):
        self.stopped.set()
        self.reader.join(timeout=5)
        for stream in self.streams:
            stream.close()


def run(binary, name, cluster, database, count, followed):
    """One wrk push/pop run: (req/s, instances' CPU µs per mutation, PostgreSQL's)."""
    conftest.BINARY = binary
    cluster.sql(f"CREATE DATABASE {database}", database="postgres")
    with instances.Configuration(name, cluster.url(database), count, count > 1) as configuration:
        sessions = instances.make_sessions(configuration.url, instances.CONNECTIONS)
        followers = Followers(configuration, sessions) if followed else None
        try:
            label = name.replace(" ", "_")
            instances.wrk(configuration.url, "push_pop.lua", sessions, instances.WARMUP, f"{label}-warmup.txt")
            server, database_pids = configuration.server_pids(), cluster.processes()
            before = (instances.cpu_seconds(server), instances.cpu_seconds(database_pids))
            rps, _, _, errors = instances.wrk(configuration.url, "push_pop.lua", sessions, instances.DURATION, f"{label}.txt")
            after = (instances.cpu_seconds(server), instances.cpu_seconds(cluster.processes()))
            assert errors == 0, f"{name}: {errors} errors"
        finally:
            if followers:
                followers.close()
    mutations = rps * instances.DURATION
    return rps, (after[0] - before[0]) / mutations * 1e6, (after[1] - before[1]) / mutations * 1e6


def main():
    RESULTS.mkdir(parents=True, exist_ok=True)
    this = build(ROOT, ROOT / ".build", RESULTS / "build.log")
    builds = [(f"{REF} (one channel)", ref_binary()), ("this build (a channel per session)", this)]
    deployments = [("1 instance", 1, False), ("3 instances", 3, False), ("3 instances, every session followed on one", 3, True)]
    figures = {}
    with PostgresCluster.create() as cluster:
        for round_index in range(ROUNDS):
            for deployment, count, followed in deployments:
                order = builds if round_index % 2 == 0 else builds[::-1]
                for build_name, binary in order:
                    name = f"{build_name} {deployment} {round_index}"
                    print(f"run-notifications: {name}", file=sys.stderr)
                    database = f"n{round_index}_{count}_{int(followed)}_{builds.index((build_name, binary))}"
                    figures.setdefault((deployment, build_name), []).append(run(binary, name, cluster, database, count, followed))
    lines = [
        f"{instances.CONNECTIONS} connections, {instances.DURATION} s per run, medians of {ROUNDS} alternating rounds, "
        f"{instances.SERVER_THREADS} server threads per instance, everything on this machine ({os.cpu_count()} cores).",
        "",
        "| deployment | build | push/pop req/s | instances' CPU µs/mutation | PostgreSQL CPU µs/mutation |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for deployment, _, _ in deployments:
        for build_name, _ in builds:
            rps, server, database = (statistics.median(column) for column in zip(*figures[(deployment, build_name)]))
            lines.append(f"| {deployment} | {build_name} | {rps:,.0f} | {server:.0f} | {database:.0f} |")
    instances.write_report(lines)


if __name__ == "__main__":
    main()
