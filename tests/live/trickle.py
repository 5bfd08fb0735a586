"""Connections that trickle a request head that never ends, what the slow-client tests attack with,
and the timed request of the client they must not lock out."""
import socket
import time

HEAD = b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: "


def open_trickler(address, source="127.0.0.1"):
    """A connection from `source` that has sent the start of a head; None when it cannot open."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((source, 0))
        sock.settimeout(2)
        sock.connect(address)
        sock.sendall(HEAD)
        sock.setblocking(False)
        return sock
    except OSError:
        sock.close()
        return None


def still_open(sock):
    """Sends one more byte of the never-ending header; False once the server has closed."""
    try:
        if sock.recv(1) == b"":
            return False
    except BlockingIOError:
        pass
    except OSError:
        return False
    try:
        sock.send(b"a")
        return True
    except BlockingIOError:
        return True
    except OSError:
        return False


def timed_request(address, source):
    """One request on a new connection from `source`; its latency in seconds."""
    started = time.monotonic()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((source, 0))
        sock.settimeout(5)
        sock.connect(address)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        answer = b""
        while data := sock.recv(4096):
            answer += data
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]
    return time.monotonic() - started
