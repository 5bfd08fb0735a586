"""Starts the real minerva-server binary on 127.0.0.1 with a free port for the live tests."""
import datetime
import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = Path(__file__).resolve().parent / "apps"
BINARY = Path(os.environ.get("MINERVA_BIN", ROOT / ".build" / "release" / "minerva-server"))
AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
# Hypothesis (under schemathesis) keeps a cache folder, by default .hypothesis/ in the working
# directory: a temporary one instead, so that a test run leaves the clone as it was.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", tempfile.mkdtemp(prefix="minerva-hypothesis-"))


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "serial: measures time or load (latency, a bound on a 503, shares under attack), so "
        "scripts/test.sh runs it in a pytest of its own after the parallel one, with nothing beside it")


def check_block(events, version, first_seq):
    """Asserts that `events` are one mutation's whole block: seq contiguous from `first_seq`,
    every event at `version` with an RFC 3339 UTC time in milliseconds, `final` on the last only."""
    assert events, "a successful mutation appended no event"
    assert [event["seq"] for event in events] == list(range(first_seq, first_seq + len(events))), events
    assert all(event["version"] == version for event in events), events
    assert [event.get("final", False) for event in events] == [False] * (len(events) - 1) + [True], events
    assert all(AT.fullmatch(event["at"]) for event in events), events
    return events


def split_blocks(events):
    """Splits a run of events into blocks at each `final`, checking each block (versions grow by 1)."""
    blocks, current = [], []
    for event in events:
        current.append(event)
        if event.get("final"):
            blocks.append(check_block(current, current[0]["version"], current[0]["seq"]))
            current = []
    assert not current, f"events after the last final one: {current}"
    for earlier, later in zip(blocks, blocks[1:]):
        assert later[0]["version"] == earlier[0]["version"] + 1
    return blocks


class Client:
    """A small urllib client for the server at `self.url`: one instance, or nginx in front of several."""

    def request(self, method, path, body=None, token=None, headers=None, raw=None):
        """Returns (status, headers, parsed JSON body or None)."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None and raw is None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", "Bearer " + token)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, answer_headers, payload = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, answer_headers, payload = error.code, error.headers, error.read()
        document = json.loads(payload) if payload else None
        return status, answer_headers, document

    def create_session(self, **body):
        status, headers, document = self.request("POST", "/v1/sessions", body)
        assert status == 201, document
        return Session(self, document["id"], document["token"], document)


class RunningServer(Client):
    """A minerva-server process and a small urllib client for it."""

    def __init__(self, *args, environment=None):
        """`environment`: variables added to this process's for the server (MINERVA_STORE)."""
        environment = environment or {}
        # an in-memory store unless the test names one (not whatever MINERVA_STORE the shell has)
        chosen = "--store" in args or "MINERVA_STORE" in environment
        self.process = subprocess.Popen(
            [str(BINARY), "--port", "0", *(args if chosen else ("--store", "memory", *args))],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, **environment},
        )
        self.log = []
        line = ""
        for line in self.process.stdout:
            self.log.append(line)
            match = re.search(r"listening on (http://[^\s\"]+)", line)
            if match:
                self.url = match.group(1)
                break
        else:
            raise RuntimeError("server did not start: " + "".join(self.log))
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self):
        for line in self.process.stdout:
            self.log.append(line)

    def logged(self, *parts, timeout=5):
        """Whether a log line with all of `parts` arrives within `timeout` seconds (the log is read
        by a thread of its own, so a line written before an answer may be read after it)."""
        deadline = time.monotonic() + timeout
        while not any(all(part in line for part in parts) for line in list(self.log)):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
        return True

    def stop(self):
        """SIGTERM, then the exit code (0 for a graceful stop)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=20)


class Session:
    """A session's id and token, with shortcuts for its endpoints."""

    def __init__(self, server, id, token, state):
        self.server, self.id, self.token, self.state = server, id, token, state

    def call(self, method, suffix="", body=None, headers=None, raw=None):
        return self.server.request(method, f"/v1/sessions/{self.id}{suffix}", body, self.token, headers, raw)

    def op(self, name, body=None, expect=200, headers=None):
        status, _, document = self.call("POST", "/" + name, body if body is not None else {}, headers)
        assert status == expect, (name, body, status, document)
        if status == 200:
            self.state = document
        return document

    def get(self):
        status, headers, document = self.call("GET")
        assert status == 200, document
        self.state = document
        return document

    def events(self, after=0):
        status, _, document = self.call("GET", f"/events?after={after}")
        assert status == 200, document
        return document

    def other_client(self):
        """A second client of the same session (same id and token, its own connections)."""
        return Session(self.server, self.id, self.token, self.state)

    def on(self, server):
        """The same session through another server (another instance on the same store)."""
        return Session(server, self.id, self.token, self.state)

    def block(self, method, suffix, body=None, headers=None):
        """Runs a mutation that must succeed and returns (answer, its block of events), checking
        that it moved the version by 1 and appended one whole block that `lastEvent` ends."""
        before = self.get()
        status, _, answer = self.call(method, suffix, body, headers)
        assert status == 200, (method, suffix, body, status, answer)
        after = self.get()
        assert after["version"] == before["version"] + 1, (suffix, body)
        events = self.events(before["lastEvent"])["events"]
        check_block(events, after["version"], before["lastEvent"] + 1)
        assert after["lastEvent"] == events[-1]["seq"]
        assert events[-1]["focus"] == after["focus"], "the block's last event carries the focus after it"
        assert all("focus" not in event for event in events[:-1])
        if suffix != "/restore":                                 # new nodes are numbered from the counter up
            assert all(int(event["node"][1:]) >= before["nextNode"] for event in events if event["type"] == "added"), (before, events)
        assert after["nextNode"] >= before["nextNode"] and after["nextNavigator"] >= before["nextNavigator"]
        for event in events:                                     # `at` is the server's time now, in UTC
            at = datetime.datetime.strptime(event["at"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
            assert abs(at.timestamp() - time.time()) < 10, event
        if "version" in answer and "lastEvent" in answer:
            assert answer == after
        return answer, events

    def change(self, name, body=None, headers=None):
        """A navigation operation that must succeed: its block of events (see `block`)."""
        return self.block("POST", "/" + name, body if body is not None else {}, headers)[1]


class EventStream:
    """A server-sent event stream of a session read over a raw socket: the HTTP head, then the
    chunked body decoded into frames ({"id"?, "event"?, "data"?, "retry"?}, data parsed as JSON)."""

    def __init__(self, session, headers=None, timeout=10):
        address = urllib.parse.urlsplit(session.server.url)
        self.socket = socket.create_connection((address.hostname, address.port), timeout=timeout)
        extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        self.socket.sendall((f"GET /v1/sessions/{session.id}/events HTTP/1.1\r\nHost: x\r\n"
                             f"Authorization: Bearer {session.token}\r\nAccept: text/event-stream\r\n{extra}\r\n").encode())
        self.raw, self.text, self.frames, self.ended = b"", "", [], False
        while b"\r\n\r\n" not in self.raw:
            self._receive(time.monotonic() + timeout)
        head, _, self.raw = self.raw.partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        self.status = int(lines[0].split()[1])
        self.headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
        assert self.headers.get("transfer-encoding") == "chunked", head
        self._decode()

    def _receive(self, deadline):
        self.socket.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = self.socket.recv(65536)
        except (socket.timeout, TimeoutError):
            return False
        if not chunk:
            raise ConnectionError("the stream closed without its last chunk")
        self.raw += chunk
        return True

    def _decode(self):
        while not self.ended:
            size_line, separator, rest = self.raw.partition(b"\r\n")
            if not separator:
                break
            size = int(size_line.split(b";")[0], 16)
            if len(rest) < size + 2:
                break
            assert rest[size:size + 2] == b"\r\n", self.raw
            self.text += rest[:size].decode()
            self.raw = rest[size + 2:]
            if size == 0:
                self.ended = True
        while "\n\n" in self.text:
            frame_text, _, self.text = self.text.partition("\n\n")
            frame = {}
            for line in frame_text.split("\n"):
                name, _, value = line.partition(": ")
                frame[name] = json.loads(value) if name == "data" else value
            self.frames.append(frame)

    def wait(self, predicate, timeout=10):
        """Reads until predicate(frames) holds or the stream ends; False when it timed out."""
        deadline = time.monotonic() + timeout
        while not predicate(self.frames):
            if self.ended or time.monotonic() >= deadline:
                return False
            if self._receive(deadline):
                self._decode()
        return True

    def events(self):
        """The frames that carry an event of the change log."""
        return [frame for frame in self.frames if "id" in frame]

    def read_events(self, count, timeout=10):
        """Waits for `count` event frames and returns them; fewer when the time ran out."""
        self.wait(lambda frames: len([frame for frame in frames if "id" in frame]) >= count, timeout)
        return self.events()

    def close(self):
        self.socket.close()


# The apps of the flows chapter's states: a bank, a news reader's split, a food app's guarded checkout.
FLOW_APPS = {"bank": APPS / "bank.json", "news": APPS / "news.json", "food": APPS / "food.json"}


@pytest.fixture(scope="module")
def apps():
    """A server on each of FLOW_APPS, by name."""
    servers = {name: RunningServer("--app", str(path), "--rate-limit", "0") for name, path in FLOW_APPS.items()}
    yield servers
    for running in servers.values():
        assert running.stop() == 0, "".join(running.log)


@pytest.fixture(scope="session")
def server():
    """The server on tests/live/apps/basic.json: one stack, routes and a guard."""
    assert BINARY.exists(), f"build the server first: {BINARY} is missing"
    running = RunningServer("--app", str(APPS / "basic.json"), "--rate-limit", "0")
    yield running
    assert running.stop() == 0, "".join(running.log)


@pytest.fixture(scope="session")
def demo_server():
    """The server on the built-in demo app: root flows (onboarding, sign-in, main tabs), a
    guarded settings screen, deep links into each flow."""
    assert BINARY.exists(), f"build the server first: {BINARY} is missing"
    running = RunningServer("--rate-limit", "0")
    yield running
    assert running.stop() == 0, "".join(running.log)


@pytest.fixture(scope="session")
def tabs_server():
    """The server on tests/live/apps/tabs.json (the demo app before root flows): one tab bar,
    a settings screen guarded by `signedIn` behind a login sheet, deep links."""
    assert BINARY.exists(), f"build the server first: {BINARY} is missing"
    running = RunningServer("--app", str(APPS / "tabs.json"), "--rate-limit", "0")
    yield running
    assert running.stop() == 0, "".join(running.log)


@pytest.fixture
def session(server):
    return server.create_session()
