"""Several instances on one PostgreSQL keep the semantics of one, proven by a history checker
(history_checker.py) over a concurrent run with faults: issue 37, item 3.

openapi.yaml promises that with a PostgreSQL store "a change acknowledged by one [instance] is
seen by the next read on any other", that an Idempotency-Key retried on another instance answers
the first outcome, and that streams hear every change in order, each once. Two tests:

- `test_a_history_with_faults_is_linearizable`: clients on 8 sessions through three instances and
  nginx round-robin (each request by a path chosen at random: nginx or one instance directly)
  read, long-poll, read past versions, write with If-Match, write unconditionally and write with
  Idempotency-Keys retried on other paths until their outcome is known, while followers hear
  each session by server-sent events or by polling its change log; meanwhile the database is
  stopped, frozen, and an instance is killed with -9 and replaced (nginx reloaded with the new
  one), 12 faults in all. Every request is recorded; at the end every instance is read, past
  versions are read on every instance, each session's whole log is read, and the checker runs
  over the whole history.
- `test_read_your_writes_across_two_instances_with_a_concurrent_writer`: the issue's loop, 300
  rounds: a client writes through A and at once reads through B (GET, long poll with the
  acknowledged version as If-None-Match, an If-Match write naming it) while another client keeps
  changing the session through B.

Errors during faults are expected (a quick 503, a refused or broken connection, nginx's 502) and
are recorded as what they are: for a write, an outcome that is unknown until a retry with its key
tells. Only the checker decides what is wrong.
"""
import http.client
import json
import random
import signal
import threading
import time
import urllib.parse
from types import SimpleNamespace

import pytest

from conftest import BINARY, EventStream, RunningServer
from deployment import ARGUMENTS, Deployment
from history_checker import (EVENTS_READ, KEYED_WRITE, LONG_POLL, READ, STREAM, VERSION_READ, WRITE,
                             Recorder, assert_consistent, check)

pytestmark = pytest.mark.serial

SESSIONS = 8
WRITERS_PER_SESSION = 2
# Each of the three faults four times; each lasts FAULT_SECONDS, then the instances must be
# healthy again and the run goes on undisturbed for CALM_SECONDS.
FAULTS = ("postgres stopped", "postgres frozen", "instance killed -9") * 4
FAULT_SECONDS = 2.5
CALM_SECONDS = 3.0
# Stacks stay shallow: a write pops to the root once the stack a client last saw is this deep.
MAX_DEPTH = 6
# Every event a run makes stays in the log, so that the whole log can be read at the end.
EVENT_HISTORY = 1_000_000
REQUEST_TIMEOUT = 10
ROUNDS = 300


class ReplaceableDeployment(Deployment):
    """test_instances' deployment (three instances, nginx round-robin, a private PostgreSQL) with
    the whole change log kept, named instances, and a way to replace one."""

    def __init__(self):
        super().__init__()
        self.names = ["A", "B", "C"]
        self.generations = {"A": 1, "B": 1, "C": 1}

    def start_instance(self):
        return RunningServer(*ARGUMENTS, "--event-history", str(EVENT_HISTORY), "--store", self.postgres.url())

    def routes(self):
        """{path name: base URL}: nginx and every instance directly."""
        return {"nginx": self.nginx.url, **{name: instance.url for name, instance in zip(self.names, self.instances)}}

    def kill_and_replace(self, index):
        """kill -9 of instance `index`, then, after FAULT_SECONDS (nginx routes around the dead one,
        clients that go to it directly find its port closed), a new instance in its place and
        nginx reloaded over it: the new instance's path name."""
        victim, name = self.instances[index], self.names[index]
        victim.process.send_signal(signal.SIGKILL)
        victim.process.wait()
        time.sleep(FAULT_SECONDS)
        self.instances[index] = self.start_instance()
        letter = name[0]
        self.generations[letter] += 1
        self.names[index] = f"{letter}{self.generations[letter]}"
        self.reload_nginx(self.instances[index])
        return self.names[index]

    def reload_nginx(self, new_instance):
        """Writes nginx's instance list again and reloads it (SIGHUP), as an operator would;
        returns once nginx passed a request to `new_instance`."""
        (self.nginx.folder / "minerva-instances.conf").write_text(
            "".join(f"server {instance.url.removeprefix('http://')};\n" for instance in self.instances))
        self.nginx.process.send_signal(signal.SIGHUP)
        address = new_instance.url.removeprefix("http://")
        deadline = time.monotonic() + 10
        while address not in {upstream for uri, upstream in self.nginx.upstreams() if uri == "/healthz"}:
            assert time.monotonic() < deadline, "nginx did not take the new instance: " + self.nginx.error_log()
            exchange(self.nginx.url, "GET", "/healthz")
            time.sleep(0.05)

    def wait_until_healthy(self, timeout=30):
        deadline = time.monotonic() + timeout
        for instance in self.instances:
            while True:
                try:
                    if exchange(instance.url, "GET", "/healthz", timeout=5)[0] == 200:
                        break
                except (OSError, http.client.HTTPException):
                    pass
                assert time.monotonic() < deadline, "the instances did not heal:\n" + self.logs()
                time.sleep(0.1)


@pytest.fixture
def cluster():
    """A deployment of the test's own: the run stops and freezes its database and kills instances."""
    assert BINARY.exists(), f"build the server first: {BINARY} is missing"
    running = ReplaceableDeployment()
    try:
        yield running
    finally:
        running.close()


def exchange(url, method, target, token=None, body=None, headers=None, timeout=REQUEST_TIMEOUT):
    """One request on a connection of its own: (status, headers, body as JSON, or as text when it
    is not JSON, as nginx's own error pages). Connection failures raise (OSError, HTTPException)."""
    address = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=timeout)
    sent = {**({"Authorization": "Bearer " + token} if token else {}), **(headers or {})}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    try:
        connection.request(method, target, body=data, headers=sent)
        response = connection.getresponse()
        payload = response.read()
    finally:
        connection.close()
    try:
        document = json.loads(payload) if payload else None
    except ValueError:
        document = payload.decode(errors="replace")
    return response.status, response.headers, document


class Paths:
    """The ways to the sessions now, shared by the threads: nginx and each live instance by name."""

    def __init__(self, routes):
        self.routes, self.lock = dict(routes), threading.Lock()

    def pick(self, rng, avoid=None):
        """(name, url) of a path at random, another than `avoid` when there is one."""
        with self.lock:
            choices = [item for item in self.routes.items() if item[0] != avoid] or list(self.routes.items())
        return rng.choice(choices)

    def remove(self, name):
        with self.lock:
            self.routes.pop(name, None)

    def add(self, name, url):
        with self.lock:
            self.routes[name] = url


def perform(recorder, client, session, kind, path, action, method, target, body=None, headers=None, **request):
    """Sends one request through `path` (name, url) and records it as an operation: the operation
    and the answer's body (None when no answer came)."""
    operation = recorder.invoke(client, session.id, kind, path[0], action, **request)
    try:
        status, answer_headers, document = exchange(path[1], method, target, session.token, body, headers)
    except (OSError, http.client.HTTPException) as error:
        return operation.fail(error), None
    return operation.answer(status, answer_headers, document), document


def depth(document):
    """How deep the base stack of a state document is; None for any other answer."""
    if isinstance(document, dict) and "navigators" in document:
        return len(document["navigators"][0]["stack"])
    return None


class Client:
    """One client of one session: it remembers the newest state it saw (its version is what it
    names in If-Match and If-None-Match) and chooses its next operation at random."""

    # (method name, weight)
    STEPS = (("read", 25), ("long_poll", 15), ("read_version", 10), ("conditional_write", 20),
             ("keyed_write", 20), ("plain_write", 10))

    def __init__(self, name, session, recorder, paths, seed):
        self.name, self.session, self.recorder, self.paths = name, session, recorder, paths
        self.rng = random.Random(seed)
        self.known, self.depth, self.steps = 1, 1, 0

    def run(self, stopping):
        names, weights = zip(*self.STEPS)
        while not stopping.is_set():
            self.steps += 1
            getattr(self, self.rng.choices(names, weights)[0])()

    def call(self, kind, action, method, suffix="", body=None, headers=None, avoid=None, **request):
        """One request through a path at random (another than `avoid`); learns from its answer."""
        path = self.paths.pick(self.rng, avoid)
        operation, document = perform(self.recorder, self.name, self.session, kind, path, action, method,
                                      f"/v1/sessions/{self.session.id}{suffix}", body, headers, **request)
        self.learn(operation, document)
        return operation

    def learn(self, operation, document):
        """Keeps the newest version an answer names, and the stack depth of the newest state
        document; backs off a little after a failure."""
        newest = operation.observed if operation.kind != VERSION_READ else None
        if newest is not None and newest >= self.known:
            self.known = newest
            self.depth = depth(document) or self.depth
        if operation.status is None or operation.status >= 500:
            time.sleep(0.1)

    def change(self):
        """A write's action and body: a tagged push or navigate, or a pop to the root when the
        newest stack seen is deep (after which the stack is at its root, by this pop or by another
        client's: the next state seen says how deep it is then)."""
        tag = f"{self.name}-{self.steps}"
        if self.depth >= MAX_DEPTH:
            self.depth = 1
            return "pop", {"toRoot": True}, None
        action = self.rng.choice(("push", "navigate"))
        return action, {"screen": "profile", "params": {"userId": tag}}, tag

    def read(self):
        self.call(READ, "GET", "GET")

    def long_poll(self):
        known = self.known
        self.call(LONG_POLL, "GET ?wait=1", "GET", "?wait=1", headers={"If-None-Match": f'"{known}"'},
                  if_none_match=known, wait=1)

    def read_version(self):
        version = self.known if self.rng.random() < 0.7 else self.rng.randint(1, self.known)
        self.call(VERSION_READ, f"versions/{version}", "GET", f"/versions/{version}", requested=version)

    def conditional_write(self):
        action, body, tag = self.change()
        known = self.known
        self.call(WRITE, action, "POST", "/" + action, body, {"If-Match": f'"{known}"'}, if_match=known, tag=tag)

    def plain_write(self):
        action, body, tag = self.change()
        self.call(WRITE, action, "POST", "/" + action, body, tag=tag)

    def keyed_write(self, attempts=40):
        """A tagged change with its tag as Idempotency-Key, sent again through another path until
        an answer says what became of it; after a 200, sometimes once more, to see the replay."""
        tag = f"{self.name}-{self.steps}"
        action = self.rng.choice(("push", "navigate"))
        body, headers = {"screen": "profile", "params": {"userId": tag}}, {"Idempotency-Key": tag}
        path = None
        for _ in range(attempts):
            operation = self.call(KEYED_WRITE, action, "POST", "/" + action, body, headers, avoid=path, key=tag, tag=tag)
            path = operation.path
            if operation.status is not None and operation.status < 500:
                break
        if operation.status == 200 and self.rng.random() < 0.25:
            self.call(KEYED_WRITE, action, "POST", "/" + action, body, headers, avoid=path, key=tag, tag=tag)


class Follower:
    """Hears one session's change log from the seq it last saw, by server-sent events or by
    polling `events?after=`, through a path chosen anew after every break. Stops once asked and
    past `target` (the session's last event at the end), or at `deadline`."""

    def __init__(self, name, session, recorder, paths, seed, streaming):
        self.name, self.session, self.recorder, self.paths = name, session, recorder, paths
        self.rng, self.streaming = random.Random(seed), streaming
        self.last, self.target, self.deadline = 0, None, None

    def done(self, stopping):
        if not stopping.is_set():
            return False
        return (self.target is not None and self.last >= self.target) or \
            (self.deadline is not None and time.monotonic() > self.deadline)

    def run(self, stopping):
        while not self.done(stopping):
            (self.stream if self.streaming else self.poll)(stopping)

    def poll(self, stopping):
        path = self.paths.pick(self.rng)
        operation, _ = perform(self.recorder, self.name, self.session, EVENTS_READ, path, "events ?wait=1", "GET",
                               f"/v1/sessions/{self.session.id}/events?after={self.last}&wait=1",
                               after=self.last, wait=1)
        if operation.status == 200 and operation.events:
            self.last = operation.events[-1]["seq"]
        elif operation.status != 200:
            time.sleep(0.1)

    def stream(self, stopping):
        path = self.paths.pick(self.rng)
        operation = self.recorder.invoke(self.name, self.session.id, STREAM, path[0], "events (stream)", after=self.last)
        try:
            stream = EventStream(self.session.on(SimpleNamespace(url=path[1])), {"Last-Event-ID": str(self.last)},
                                 timeout=5)
        except (OSError, AssertionError, ValueError) as error:       # refused, or a 503 instead of a stream
            operation.fail(error)
            time.sleep(0.1)
            return
        operation.status = stream.status
        try:
            self.hear(stream, operation, stopping)
            operation.close()
        except (OSError, AssertionError, ValueError) as error:       # the instance died, or nginx cut it
            operation.close(error)
        finally:
            stream.close()

    def hear(self, stream, operation, stopping):
        heard = 0
        while not self.done(stopping) and not stream.ended:
            stream.wait(lambda frames: len(frames) > heard, timeout=0.5)
            for frame in stream.frames[heard:]:
                if frame.get("event") == "truncated":
                    operation.truncated = True
                if "id" in frame:
                    operation.event(frame["data"])
                    self.last = frame["data"]["seq"]
            heard = len(stream.frames)


def run_threads(targets, stopping):
    threads = [threading.Thread(target=target.run, args=(stopping,), daemon=True) for target in targets]
    for thread in threads:
        thread.start()
    return threads


def join(threads, timeout=60):
    deadline = time.monotonic() + timeout
    for thread in threads:
        thread.join(max(0.1, deadline - time.monotonic()))
    assert not any(thread.is_alive() for thread in threads), "a client thread did not end"


def inject(cluster, paths, recorder, name, round):
    """The fault `name`, the `round`th of the run, recorded from its start until the instances are
    healthy again. The instances killed take turns."""
    with recorder.fault(name):
        if name == "postgres stopped":
            cluster.postgres.stop()
            time.sleep(FAULT_SECONDS)
            cluster.postgres.start()
        elif name == "postgres frozen":
            cluster.postgres.freeze()
            time.sleep(FAULT_SECONDS)
            cluster.postgres.thaw()
        else:
            index = FAULTS[:round].count(name) % len(cluster.instances)
            killed = cluster.names[index]
            replacement = cluster.kill_and_replace(index)
            paths.remove(killed)
            paths.add(replacement, cluster.instances[index].url)
        cluster.wait_until_healthy()


def final_reads(cluster, recorder, sessions, rng):
    """After the run: each session's state and whole log through every path, and a sample of its
    acknowledged versions on every instance (each must answer 200)."""
    routes = cluster.routes()
    instances = [path for path in routes.items() if path[0] != "nginx"]
    for session in sessions:
        for path in routes.items():
            perform(recorder, "final", session, READ, path, "GET", "GET", f"/v1/sessions/{session.id}")
            perform(recorder, "final", session, EVENTS_READ, path, "events", "GET",
                    f"/v1/sessions/{session.id}/events?after=0", after=0)
        acknowledged = sorted({operation.version for operation in list(recorder.operations)
                               if operation.session == session.id and operation.acknowledged})
        sample = acknowledged[-3:] + rng.sample(acknowledged, min(5, len(acknowledged)))
        for version in sample:
            for path in instances:
                perform(recorder, "final", session, VERSION_READ, path, f"versions/{version}", "GET",
                        f"/v1/sessions/{session.id}/versions/{version}", requested=version)


def test_a_history_with_faults_is_linearizable(cluster):
    """The run of the module's docstring. Measured on two cores: the run takes about 120 s (12
    faults of 2.5 s to 3.5 s each, 6 s of calm after each) and records about 25,000 operations;
    any anomaly fails it with an excerpt of the history around it."""
    started = time.monotonic()
    recorder, rng, stopping = Recorder(), random.Random(37), threading.Event()
    paths = Paths(cluster.routes())
    sessions = [cluster.nginx.create_session() for _ in range(SESSIONS)]
    clients = [Client(f"c{index}.{writer}", session, recorder, paths, rng.random())
               for index, session in enumerate(sessions) for writer in range(WRITERS_PER_SESSION)]
    followers = [Follower(f"f{index}", session, recorder, paths, rng.random(), streaming=index % 2 == 0)
                 for index, session in enumerate(sessions)]
    client_threads, follower_threads = run_threads(clients, stopping), run_threads(followers, stopping)
    try:
        time.sleep(CALM_SECONDS / 2)
        for round, name in enumerate(FAULTS):
            inject(cluster, paths, recorder, name, round)
            time.sleep(CALM_SECONDS)
    finally:
        stopping.set()
        for follower in followers:                    # whatever happens next, they end
            follower.deadline = time.monotonic() + 60
        join(client_threads)
    cluster.wait_until_healthy()
    final_reads(cluster, recorder, sessions, rng)
    lasts = {session.id: max(operation.last_event for operation in recorder.operations if operation.client == "final"
                             and operation.session == session.id and operation.kind == EVENTS_READ
                             and operation.status == 200) for session in sessions}
    for follower in followers:
        follower.target, follower.deadline = lasts[follower.session.id], time.monotonic() + 10
    join(follower_threads)
    print(f"\nrun: {time.monotonic() - started:.1f} s wall time, {len(clients)} clients and {len(followers)} "
          f"followers on {SESSIONS} sessions, through nginx and {len(cluster.instances)} instances")
    result = assert_consistent(recorder)
    assert result.counts["faults"] >= 10 and result.counts["operations"] >= 10_000, result.summary()
    assert all(follower.last == lasts[follower.session.id] for follower in followers), "a follower fell behind"


def change_all_along(client, stopping):
    """`client` makes changes without If-Match until `stopping` is set."""
    while not stopping.is_set():
        client.steps += 1
        client.plain_write()


def read_after_write(recorder, session, path, version, round):
    """The three reads of a round through `path` after `version` was acknowledged, each first in
    a third of the rounds: a GET, a long poll whose If-None-Match names `version`, and an If-Match
    write naming it."""
    target = f"/v1/sessions/{session.id}"
    tag = f"me-{round}-b"
    reads = [
        lambda: perform(recorder, "me", session, READ, path, "GET", "GET", target),
        lambda: perform(recorder, "me", session, LONG_POLL, path, "GET ?wait=2", "GET", target + "?wait=2",
                        headers={"If-None-Match": f'"{version}"'}, if_none_match=version, wait=2),
        lambda: perform(recorder, "me", session, WRITE, path, "push", "POST", target + "/push",
                        {"screen": "followers", "params": {"userId": tag}}, {"If-Match": f'"{version}"'},
                        if_match=version, tag=tag),
    ]
    for read in reads[round % 3:] + reads[:round % 3]:
        read()


def test_read_your_writes_across_two_instances_with_a_concurrent_writer(cluster):
    """The issue's loop, ROUNDS rounds: a push through A, then at once the three reads of
    `read_after_write` through B, while another client changes the session through B all along
    (pushing, and popping to the root when deep: the stack stays shallow)."""
    recorder, stopping = Recorder(), threading.Event()
    routes = cluster.routes()
    through_a, through_b = ("A", routes["A"]), ("B", routes["B"])
    session = cluster.nginx.create_session()
    other = Client("other", session, recorder, Paths(dict([through_b])), 7)
    other_thread = threading.Thread(target=change_all_along, args=(other, stopping), daemon=True)
    other_thread.start()
    try:
        for round in range(ROUNDS):
            # A write that loses the race to the other client's too many times in a row is refused
            # (503, not applied, Retry-After): it is sent again, as a client does.
            for attempt in range(5):
                tag = f"me-{round}" + (f"-{attempt}" if attempt else "")
                write, _ = perform(recorder, "me", session, WRITE, through_a, "push", "POST",
                                   f"/v1/sessions/{session.id}/push", {"screen": "profile", "params": {"userId": tag}},
                                   tag=tag)
                if write.status != 503 or "changing too fast" not in (write.message or ""):
                    break
            assert write.status == 200, (write.status, write.message, write.error)
            read_after_write(recorder, session, through_b, write.version, round)
    finally:
        stopping.set()
        join([other_thread])
    perform(recorder, "final", session, EVENTS_READ, through_a, "events", "GET",
            f"/v1/sessions/{session.id}/events?after=0", after=0)
    found = check(recorder).by_kind()
    print(f"\nread-your-writes across instances, {ROUNDS} rounds: stale GET {found['stale-read']}, "
          f"stale long poll {found['stale-long-poll']}, stale 412 {found['stale-412']}")
    assert_consistent(recorder)
