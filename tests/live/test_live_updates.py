"""Live updates over real HTTP: long polls that hold no thread, and server-sent events."""
import socket
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor


def test_a_long_poll_returns_when_another_client_changes_the_session(server, session):
    def later():
        time.sleep(0.5)
        session.op("push", {"screen": "settings"})
        session.op("pop")

    threading.Thread(target=later).start()
    started = time.monotonic()
    status, _, body = session.call("GET", "/events?after=0&wait=10")
    elapsed = time.monotonic() - started
    assert status == 200 and 0.4 < elapsed < 5
    assert [event["seq"] for event in body["events"]] == [1] and body["last"] == 1


def test_a_long_poll_answers_empty_after_its_wait(session):
    started = time.monotonic()
    status, _, body = session.call("GET", "/events?after=0&wait=1")
    assert status == 200 and body == {"events": [], "last": 0}
    assert 0.9 < time.monotonic() - started < 4


def test_a_long_poll_with_events_already_there_answers_at_once(session):
    session.op("push", {"screen": "settings"})
    session.op("pop")
    started = time.monotonic()
    status, _, body = session.call("GET", "/events?after=0&wait=30")
    assert status == 200 and len(body["events"]) == 1 and time.monotonic() - started < 1


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
            s.op("pop")
        results = [poll.result(timeout=10) for poll in polls]
    assert all(status == 200 and body["last"] == 1 for status, _, body in results)


def test_wait_errors(session):
    assert session.call("GET", "/events?wait=61")[0] == 400
    assert session.call("GET", "/events?wait=-1")[0] == 400
    assert session.call("GET", "/events?wait=x")[0] == 400


def read_sse(server, session, headers, count, timeout=10):
    """Opens a stream and returns the first `count` events as (id, data) pairs."""
    address = urllib.parse.urlsplit(server.url)
    sock = socket.create_connection((address.hostname, address.port), timeout=timeout)
    extra = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    sock.sendall((f"GET /v1/sessions/{session.id}/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {session.token}\r\n"
                  f"Accept: text/event-stream\r\n{extra}\r\n").encode())
    data = b""
    events = []
    deadline = time.monotonic() + timeout
    while len(events) < count and time.monotonic() < deadline:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
        events = [line for line in data.decode(errors="replace").split("\n") if line.startswith("id: ")]
    return sock, data.decode(errors="replace")


def test_server_sent_events_stream_changes_as_they_happen(server, session):
    session.op("push", {"screen": "settings"})
    session.op("pop")                                   # event 1 exists before the stream opens

    def later():
        time.sleep(0.5)
        session.op("push", {"screen": "settings"})
        session.op("push", {"screen": "settings"})
        session.op("pop", {"toRoot": True})             # events 2 and 3

    threading.Thread(target=later).start()
    sock, text = read_sse(server, session, {}, count=3)
    sock.close()
    head, _, body = text.partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 200") and "text/event-stream" in head
    assert "id: 1\n" in body and "id: 2\n" in body and "id: 3\n" in body
    assert '"reason":"pop"' in body and "event: removed" in body


def test_last_event_id_resumes_without_loss(server, session):
    for _ in range(3):
        session.op("push", {"screen": "settings"})
        session.op("pop")
    sock, text = read_sse(server, session, {"Last-Event-ID": "1"}, count=2)
    sock.close()
    assert "id: 1\n" not in text and "id: 2\n" in text and "id: 3\n" in text


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
