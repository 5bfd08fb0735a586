"""Long polls and event streams under pressure: they are never shed, but when they fill the server
and a newcomer needs room, the oldest of the address holding the most is answered early (a long
poll's answer with `Connection: close`, a stream's end with `retry:`) and its connection closes;
streams are capped per session and per address. Loopback only, on a server with small limits."""
import re
import select
import socket
import time
import urllib.parse
import urllib.request

import pytest

from conftest import RunningServer

ATTACKERS = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"]
PER_ATTACKER = 16  # 4 x 16 = --max-connections 64: the server is full of waits


def address_of(server):
    parts = urllib.parse.urlsplit(server.url)
    return parts.hostname, parts.port


def open_wait(address, source, session, stream):
    """A long poll of a minute, or an event stream, on a new connection from `source`."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.settimeout(5)
    sock.connect(address)
    accept = "Accept: text/event-stream\r\n" if stream else ""
    target = "" if stream else "?after=0&wait=60"
    sock.sendall((f"GET /v1/sessions/{session.id}/events{target} HTTP/1.1\r\nHost: t\r\n"
                  f"Authorization: Bearer {session.token}\r\n{accept}\r\n").encode())
    return sock


def read_until_closed(sock, timeout):
    data, deadline = b"", time.monotonic() + timeout
    while time.monotonic() < deadline:
        readable, _, _ = select.select([sock], [], [], max(0, deadline - time.monotonic()))
        if not readable:
            break
        try:
            chunk = sock.recv(65536)
        except OSError:
            break
        if not chunk:
            return data, True
        data += chunk
    return data, False


@pytest.mark.serial
@pytest.mark.parametrize("stream", [False, True], ids=["long_poll", "stream"])
def test_a_full_server_of_waits_answers_the_largest_groups_oldest_early(stream):
    server = RunningServer("--max-connections", "64", "--max-streams-per-session", "0", "--max-streams-per-ip", "0")
    try:
        address = address_of(server)
        session = server.create_session()
        time.sleep(0.5)  # the creation's connection is closed and forgotten: the waits get all 64
        waits = [open_wait(address, source, session, stream) for source in ATTACKERS for _ in range(PER_ATTACKER)]
        if stream:
            # each stream's head and first frame arrive at once; what comes later is the early end
            for sock in waits:
                assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")
        time.sleep(0.5)
        for sock in select.select(waits, [], [], 0)[0]:
            sock.recv(65536)  # the rest of a stream's first frames
        # a newcomer from 127.0.0.9 is let in above the limit, and stays (idle, keep-alive)
        client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        client.bind(("127.0.0.9", 0))
        client.settimeout(5)
        client.connect(address)
        client.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        assert client.recv(4096).startswith(b"HTTP/1.1 200 ")
        # within a few sweeps (one a second) the excess is worked off: one wait ends early
        ended = []
        deadline = time.monotonic() + 6
        while not ended and time.monotonic() < deadline:
            readable, _, _ = select.select(waits, [], [], 0.2)
            for sock in readable:
                data, closed = read_until_closed(sock, 3)
                ended.append((waits.index(sock), data, closed))
        assert len(ended) == 1, [(index, data[:80]) for index, data, _ in ended]
        index, data, closed = ended[0]
        assert closed, data
        if stream:
            assert b"retry: 5000" in data and data.endswith(b"0\r\n\r\n"), data
        else:
            assert data.startswith(b"HTTP/1.1 200 ") and re.search(rb"(?i)\r\nconnection: close\r\n", data), data
            assert re.search(rb'"events": ?\[\]', data), data
        # the others still wait; the client still holds its connection
        assert not select.select(waits[:index] + waits[index + 1:], [], [], 0.5)[0]
        client.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        assert client.recv(4096).startswith(b"HTTP/1.1 200 ")
        client.close()
        text = urllib.request.urlopen(server.url + "/metrics", timeout=10).read().decode()
        kind = "stream" if stream else "long_poll"
        assert re.search(rf'minerva_http_waits_ended_early_total\{{kind="{kind}"\}} 1\b', text), text
        for sock in waits:
            sock.close()
    finally:
        assert server.stop() == 0, "".join(server.log)


def event_stream(address, source, session):
    sock = open_wait(address, source, session, stream=True)
    head = sock.recv(65536)
    return sock, head


def test_streams_are_capped_per_session_and_per_address():
    server = RunningServer("--max-streams-per-session", "2", "--max-streams-per-ip", "3")
    try:
        address = address_of(server)
        first, second = server.create_session(), server.create_session()
        open_streams = []
        for source, session in [("127.0.0.2", first), ("127.0.0.2", first)]:
            sock, head = event_stream(address, source, session)
            assert head.startswith(b"HTTP/1.1 200 "), head
            open_streams.append(sock)
        # a third stream of the session, from another address: 429
        sock, head = event_stream(address, "127.0.0.3", first)
        assert head.startswith(b"HTTP/1.1 429 ") and b"Retry-After: 5" in head and b"this session already has 2" in head, head
        sock.close()
        # the address's third stream is of another session: fine; its fourth is not
        sock, head = event_stream(address, "127.0.0.2", second)
        assert head.startswith(b"HTTP/1.1 200 "), head
        open_streams.append(sock)
        sock, head = event_stream(address, "127.0.0.2", second)
        assert head.startswith(b"HTTP/1.1 429 ") and b"your address already has 3" in head, head
        sock.close()
        # a stream that ends gives its place back: the session is deleted, which ends its stream
        third = server.create_session()
        assert second.call("DELETE")[0] == 204
        deadline = time.monotonic() + 5
        while True:
            sock, head = event_stream(address, "127.0.0.2", third)
            if head.startswith(b"HTTP/1.1 200 "):
                break
            sock.close()
            assert time.monotonic() < deadline, head
            time.sleep(0.1)
        open_streams.append(sock)
        for sock in open_streams:
            sock.close()
    finally:
        assert server.stop() == 0, "".join(server.log)
