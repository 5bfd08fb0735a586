"""Live updates over real HTTP: long polls that hold no thread, and server-sent events."""
import socket
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import EventStream, split_blocks


@pytest.mark.serial
def test_a_long_poll_returns_when_another_client_changes_the_session(server, session):
    other = session.other_client()

    def later():
        time.sleep(0.5)
        other.op("push", {"screen": "settings"})

    threading.Thread(target=later).start()
    started = time.monotonic()
    status, _, body = session.call("GET", "/events?after=0&wait=10")
    elapsed = time.monotonic() - started
    assert status == 200 and 0.4 < elapsed < 5
    assert [(event["seq"], event["type"], event["node"]) for event in body["events"]] == [(1, "added", "n2")]
    assert body["last"] == 1 and body["events"][0]["final"] is True


@pytest.mark.serial
def test_a_long_poll_answers_empty_after_its_wait(session):
    started = time.monotonic()
    status, _, body = session.call("GET", "/events?after=0&wait=1")
    assert status == 200 and body == {"events": [], "last": 0}
    assert 0.9 < time.monotonic() - started < 4


@pytest.mark.serial
def test_a_long_poll_with_events_already_there_answers_at_once(session):
    session.op("push", {"screen": "settings"})
    session.op("pop")
    started = time.monotonic()
    status, _, body = session.call("GET", "/events?after=0&wait=30")
    assert status == 200 and [event["type"] for event in body["events"]] == ["added", "removed"]
    assert time.monotonic() - started < 1


@pytest.mark.serial
def test_many_waiting_long_polls_hold_no_thread(server):
    # far more waiting polls than worker threads: the server still answers everything else
    sessions = [server.create_session() for _ in range(40)]
    with ThreadPoolExecutor(max_workers=40) as pool:
        polls = [pool.submit(s.call, "GET", "/events?after=0&wait=20") for s in sessions]
        time.sleep(0.5)
        started = time.monotonic()
        assert server.request("GET", "/healthz")[0] == 200
        assert time.monotonic() - started < 1
        for s in sessions:
            s.op("push", {"screen": "settings"})
        results = [poll.result(timeout=10) for poll in polls]
    assert all(status == 200 and body["last"] == 1 and body["events"][0]["type"] == "added" for status, _, body in results)


def test_wait_errors(session):
    assert session.call("GET", "/events?wait=61")[0] == 400
    assert session.call("GET", "/events?wait=-1")[0] == 400
    assert session.call("GET", "/events?wait=x")[0] == 400


def test_server_sent_events_stream_changes_as_they_happen(server, session):
    session.op("push", {"screen": "settings"})
    session.op("pop")                                   # events 1 and 2 exist before the stream opens

    def later():
        time.sleep(0.5)
        session.op("push", {"screen": "settings"})
        session.op("push", {"screen": "settings"})
        session.op("pop", {"toRoot": True})             # events 3 to 6

    stream = EventStream(session)
    try:
        threading.Thread(target=later).start()
        frames = stream.read_events(6)
    finally:
        stream.close()
    assert stream.status == 200 and stream.headers["content-type"].startswith("text/event-stream")
    assert [frame["id"] for frame in frames] == ["1", "2", "3", "4", "5", "6"]
    assert all(frame["id"] == str(frame["data"]["seq"]) and frame["event"] == frame["data"]["type"] for frame in frames)
    assert [(frame["event"], frame["data"]["node"], frame["data"].get("reason")) for frame in frames] == [
        ("added", "n2", None), ("removed", "n2", "pop"), ("added", "n3", None), ("added", "n4", None),
        ("removed", "n4", "pop"), ("removed", "n3", "pop")]
    assert [frame["data"] for frame in frames] == session.events()["events"]
    split_blocks([frame["data"] for frame in frames])


def test_last_event_id_resumes_without_loss(server, session):
    for _ in range(3):
        session.op("push", {"screen": "settings"})
        session.op("pop")
    stream = EventStream(session, {"Last-Event-ID": "1"})
    try:
        frames = stream.read_events(5)
        assert not stream.wait(lambda frames: len([frame for frame in frames if "id" in frame]) > 5, timeout=0.5)
    finally:
        stream.close()
    assert [frame["id"] for frame in frames] == ["2", "3", "4", "5", "6"]


@pytest.mark.serial
def test_streams_end_cleanly_when_the_session_is_deleted(server):
    session = server.create_session()
    address = urllib.parse.urlsplit(server.url)
    sock = socket.create_connection((address.hostname, address.port), timeout=10)
    sock.sendall((f"GET /v1/sessions/{session.id}/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {session.token}\r\n"
                  "Accept: text/event-stream\r\n\r\n").encode())
    time.sleep(0.3)
    assert session.call("DELETE")[0] == 204
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk or data.endswith(b"0\r\n\r\n") or (data + chunk).endswith(b"0\r\n\r\n"):
            data += chunk
            break
        data += chunk
    sock.close()
    assert data.endswith(b"0\r\n\r\n"), data[-50:]


@pytest.mark.serial
def test_shutdown_ends_waiting_polls_and_streams(tmp_path):
    from conftest import APPS, RunningServer
    running = RunningServer("--app", str(APPS / "basic.json"))
    session = running.create_session()
    address = urllib.parse.urlsplit(running.url)
    stream = socket.create_connection((address.hostname, address.port), timeout=10)
    stream.sendall((f"GET /v1/sessions/{session.id}/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {session.token}\r\n"
                    "Accept: text/event-stream\r\n\r\n").encode())
    with ThreadPoolExecutor(max_workers=1) as pool:
        poll = pool.submit(session.call, "GET", "/events?after=0&wait=30")
        time.sleep(0.5)
        started = time.monotonic()
        assert running.stop() == 0
        assert time.monotonic() - started < 5
        status, _, body = poll.result(timeout=5)
    assert status == 200 and body == {"events": [], "last": 0}
    stream.close()


def test_events_answer_json_unless_accept_prefers_the_event_stream(session):
    # What OpenAPI generators send for an operation listing both: JSON, not a stream that never ends.
    status, headers, body = session.call("GET", "/events", headers={"Accept": "application/json, text/event-stream"})
    assert status == 200 and headers["Content-Type"].startswith("application/json") and "events" in body, body
    for accept in ("*/*", "text/event-stream;q=0.5, application/json;q=0.5", "application/json"):
        status, headers, _ = session.call("GET", "/events", headers={"Accept": accept})
        assert status == 200 and headers["Content-Type"].startswith("application/json"), accept
    # A higher weight for the event stream streams (RFC 9110 q-values).
    address = urllib.parse.urlsplit(session.server.url)
    with socket.create_connection((address.hostname, address.port), timeout=10) as connection:
        connection.sendall((f"GET /v1/sessions/{session.id}/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {session.token}\r\n"
                            "Accept: application/json;q=0.5, text/event-stream\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += connection.recv(4096)
    assert b"200" in head.split(b"\r\n")[0] and b"content-type: text/event-stream" in head.lower(), head
