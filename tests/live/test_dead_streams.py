"""Event streams whose clients went away without a word: closed (FIN) or reset (RST) sockets, on a
session that publishes nothing more. The server must end each such stream within a bounded time —
its connection closed, its fd freed, its follower forgotten, its place under the stream caps given
back — so that a client that reconnects (a phone changing networks) is never refused for streams
that are no longer there. Idle streams carry heartbeat comments, which clients ignore."""
import os
import re
import socket
import struct
import subprocess
import time
import urllib.parse
import urllib.request

import pytest

from conftest import APPS, BINARY, EventStream, RunningServer

HEARTBEAT = 0.5   # seconds: small, so that the bound below is a few intervals
BOUND = 5         # seconds for a dropped stream to be released (10 heartbeat intervals)


@pytest.fixture(scope="module")
def quick():
    """A server whose idle streams send a heartbeat every half second."""
    running = RunningServer("--app", str(APPS / "basic.json"), "--rate-limit", "0", "--stream-heartbeat", str(HEARTBEAT))
    yield running
    assert running.stop() == 0, "".join(running.log)


def gauge(server, name):
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as response:
        text = response.read().decode()
    found = re.search(rf"^{name} ([0-9.e+]+)$", text, re.MULTILINE)
    assert found, f"{name} is not in /metrics"
    return float(found.group(1))


def refused(session):
    """Whether a new stream of the session is refused with 429 (its socket is closed then)."""
    address = urllib.parse.urlsplit(session.server.url)
    with socket.create_connection((address.hostname, address.port), timeout=10) as sock:
        sock.sendall((f"GET /v1/sessions/{session.id}/events HTTP/1.1\r\nHost: x\r\n"
                      f"Authorization: Bearer {session.token}\r\nAccept: text/event-stream\r\n\r\n").encode())
        status_line = sock.recv(4096).split(b"\r\n")[0]
    return status_line.split()[1] == b"429"


def open_fds(server):
    return len(os.listdir(f"/proc/{server.process.pid}/fd"))


def eventually(condition, timeout=BOUND):
    """Whether `condition()` holds within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True


def settled_fds(server):
    """The server's open fds once the connections of earlier requests are closed."""
    time.sleep(0.3)
    counts = [open_fds(server)]
    while True:
        time.sleep(0.2)
        counts.append(open_fds(server))
        if counts[-1] == counts[-2]:
            return counts[-1]


def drop(stream, how):
    """Goes away without reading anything more: a plain close (FIN), or a reset (RST, SO_LINGER 0)."""
    if how == "reset":
        stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    stream.close()


def released(server, baseline):
    return (gauge(server, "minerva_event_streams") == 0 and gauge(server, "minerva_event_subscribers") == 0
            and open_fds(server) <= baseline)


@pytest.mark.serial
@pytest.mark.parametrize("how", ["close", "reset"])
def test_dropped_streams_are_released_though_the_session_publishes_nothing(quick, how):
    session = quick.create_session()
    baseline = settled_fds(quick)
    streams = [EventStream(session) for _ in range(4)]
    assert [stream.status for stream in streams] == [200] * 4
    assert refused(session)                              # the cap is reached: the test can fail
    assert gauge(quick, "minerva_event_streams") == 4 and gauge(quick, "minerva_event_subscribers") == 4
    assert open_fds(quick) >= baseline + 4
    for stream in streams:
        drop(stream, how)
    # no event is published: only the server's own checks can find the streams dead
    assert eventually(lambda: released(quick, baseline)), (
        gauge(quick, "minerva_event_streams"), gauge(quick, "minerva_event_subscribers"), open_fds(quick), baseline)
    # a fifth, sixth, seventh and eighth stream are let in, and they work
    again = [EventStream(session) for _ in range(4)]
    assert [stream.status for stream in again] == [200] * 4
    assert refused(session)                              # places were given back once, not twice
    session.op("push", {"screen": "settings"})
    assert all([event["event"] for event in stream.read_events(1)] == ["added"] for stream in again)
    for stream in again:
        stream.close()
    assert eventually(lambda: released(quick, baseline))


@pytest.mark.serial
def test_a_client_reconnecting_again_and_again_is_never_refused(quick):
    # a phone changing networks: each time the old stream is left behind and a new one opened
    session = quick.create_session()
    for attempt in range(12):
        # a place is given back within the bound (the newest dropped streams may not be found yet)
        assert eventually(lambda: gauge(quick, "minerva_event_streams") < 4), attempt
        stream = EventStream(session)
        assert stream.status == 200, attempt
        drop(stream, "reset" if attempt % 2 else "close")
    assert eventually(lambda: gauge(quick, "minerva_event_streams") == 0)


@pytest.mark.serial
def test_an_idle_stream_carries_heartbeats_that_clients_ignore(quick):
    session = quick.create_session()
    stream = EventStream(session)
    assert stream.status == 200
    stream.wait(lambda frames: False, timeout=HEARTBEAT * 4.5)
    heartbeats = [frame for frame in stream.frames if frame == {"": "keep-alive"}]
    assert 2 <= len(heartbeats) <= 5, stream.frames
    # the heartbeats are comments: the events around them arrive as usual
    session.op("push", {"screen": "settings"})
    assert [event["event"] for event in stream.read_events(1)] == ["added"]
    stream.close()


@pytest.mark.serial
def test_heartbeats_leave_a_busy_stream_alone(quick):
    session = quick.create_session()
    stream = EventStream(session)
    for _ in range(6):
        session.op("push", {"screen": "settings"})
        session.op("pop")
        time.sleep(HEARTBEAT / 5)
    stream.read_events(12)
    assert [frame for frame in stream.frames if frame == {"": "keep-alive"}] == []
    stream.close()


@pytest.mark.serial
def test_a_closed_stream_is_released_long_before_its_heartbeat():
    # a client that closes or resets its socket is found by looking at the socket, not by a write
    server = RunningServer("--app", str(APPS / "basic.json"), "--rate-limit", "0")   # heartbeat: 15 s
    try:
        session = server.create_session()
        baseline = settled_fds(server)
        streams = [EventStream(session) for _ in range(4)]
        for index, stream in enumerate(streams):
            drop(stream, "reset" if index % 2 else "close")
        assert eventually(lambda: released(server, baseline), timeout=3)
        assert not refused(session)
    finally:
        assert server.stop() == 0, "".join(server.log)


@pytest.mark.parametrize("value", ["0", "-1", "3601"])
def test_a_heartbeat_out_of_range_is_refused_at_start(value):
    ran = subprocess.run([str(BINARY), "--port", "0", "--store", "memory", f"--stream-heartbeat={value}"],
                         capture_output=True, text=True, timeout=20)
    assert ran.returncode != 0 and "--stream-heartbeat must be between 0.1 and 3600 seconds" in ran.stderr + ran.stdout
