"""Starts the real minerva-server binary on 127.0.0.1 with a free port for the live tests."""
import json
import os
import re
import signal
import subprocess
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = Path(__file__).resolve().parent / "apps"
BINARY = Path(os.environ.get("MINERVA_BIN", ROOT / ".build" / "release" / "minerva-server"))


class RunningServer:
    """A minerva-server process and a small urllib client for it."""

    def __init__(self, *args):
        self.process = subprocess.Popen(
            [str(BINARY), "--port", "0", *(args if "--store" in args else ("--store", "memory", *args))],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
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

    def stop(self):
        """SIGTERM, then the exit code (0 for a graceful stop)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=20)

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


@pytest.fixture(scope="session")
def server():
    """The server on tests/live/apps/basic.json: one stack, routes and a guard."""
    assert BINARY.exists(), f"build the server first: {BINARY} is missing"
    running = RunningServer("--app", str(APPS / "basic.json"), "--rate-limit", "0")
    yield running
    assert running.stop() == 0, "".join(running.log)


@pytest.fixture(scope="session")
def demo_server():
    """The server on the built-in demo app: tabs, a guarded settings screen, deep links."""
    assert BINARY.exists(), f"build the server first: {BINARY} is missing"
    running = RunningServer("--rate-limit", "0")
    yield running
    assert running.stop() == 0, "".join(running.log)


@pytest.fixture
def session(server):
    return server.create_session()
