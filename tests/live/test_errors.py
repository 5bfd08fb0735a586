"""Every error status and body, in the contract's order; failures change nothing."""
import json
import socket
import subprocess
import urllib.parse


def error(document):
    return document["error"]["code"]


def test_unknown_path_is_404_before_anything_else(server):
    for path in ["/v1", "/web/nope.js", "/v1/sessions/x/nope", "/v2/sessions", "/healthz/x", "/v1/sessions//push"]:
        status, _, body = server.request("DELETE", path)
        assert status == 404 and error(body) == "not_found", path


def test_401_comes_before_405(server, session):
    status, _, _ = server.request("PUT", f"/v1/sessions/{session.id}/push")
    assert status == 401
    status, headers, body = session.call("PUT", "/push")
    assert status == 405 and headers["Allow"] == "POST" and error(body) == "method_not_allowed"


def test_405_carries_allow(server, session):
    status, headers, _ = server.request("GET", "/v1/sessions")
    assert status == 405 and headers["Allow"] == "POST"
    status, headers, _ = session.call("POST")
    assert status == 405 and headers["Allow"] == "GET, HEAD, DELETE"


def test_bad_json_wrong_types_and_missing_fields_are_400(session):
    cases = [b"{", b"[]", b"\"push\"", b"{\"screen\": 1}", b"{\"screen\": \"x\", \"params\": []}",
             b"{\"screen\": \"settings\", \"from\": 5}", b"", b"{\"a\":1,\"a\":2}", b"{\"screen\": \"\xff\"}",
             b"[" * 100 + b"]" * 100, b"{\"screen\": \"settings\"} trailing"]
    for raw in cases:
        status, _, body = session.call("POST", "/push", raw=raw)
        assert status == 400 and error(body) == "invalid_request", raw
    status, _, body = session.call("POST", "/present", {"screen": "settings", "embedInNavigation": "yes"})
    assert status == 400
    assert session.get()["version"] == 1


def test_null_means_absent_and_unknown_fields_are_refused(session):
    answer = session.op("push", {"screen": "settings", "from": None, "params": None, "color": "blue"}, expect=400)
    assert answer["error"]["message"].startswith("unknown field 'color'")
    state = session.op("push", {"screen": "settings", "from": None, "params": None})
    assert state["version"] == 2


def test_unknown_screens_bad_enums_and_missing_params_are_422(session):
    for body in [{"screen": "nowhere"}, {"screen": "profile"}, {"screen": "profile", "params": {"userId": None}}]:
        answer = session.op("push", body, expect=422)
        assert error(answer) == "unprocessable"
    answer = session.op("present", {"screen": "settings", "style": "sideways"}, expect=422)
    assert "fullScreen" in answer["error"]["message"]
    status, _, body = session.server.request("POST", "/v1/sessions", {"layout": "grid"})
    assert status == 422
    assert session.get()["version"] == 1


def test_404_comes_before_422(session):
    session.op("present", {"screen": "settings", "style": "sideways", "from": "n42"}, expect=404)
    session.op("push", {"screen": "nowhere", "from": "n42"}, expect=404)
    session.op("push", {"screen": "settings", "from": "v0"}, expect=404)


def test_412_comes_before_400(session):
    status, _, body = session.call("POST", "/push", raw=b"{", headers={"If-Match": '"9"'})
    assert status == 412


def test_push_from_the_app_coordinator_is_409(session):
    session.op("push", {"screen": "settings", "from": "n0"}, expect=409)
    session.op("present", {"screen": "settings", "from": "n0"}, expect=409)


def curl(server, method, path, body, token=None):
    """Sends `body` with curl (which waits for 100-continue on large bodies); (status, JSON)."""
    command = ["curl", "-sS", "-X", method, "-o", "-", "-w", "\n%{http_code}", "--data-binary", "@-", server.url + path]
    if token:
        command[1:1] = ["-H", "Authorization: Bearer " + token]
    result = subprocess.run(command, input=body, capture_output=True, check=True)
    payload, _, status = result.stdout.rpartition(b"\n")
    return int(status), json.loads(payload)


def test_oversized_body_is_413_and_changes_nothing(server, session):
    big = json.dumps({"screen": "settings", "params": {"blob": "x" * (1 << 20)}}).encode()
    status, body = curl(server, "POST", f"/v1/sessions/{session.id}/push", big, session.token)
    assert status == 413 and error(body) == "payload_too_large"
    assert session.get()["version"] == 1
    # 401 is still decided first
    status, body = curl(server, "POST", f"/v1/sessions/{session.id}/push", big)
    assert status == 401


def test_chunked_oversized_body_is_413(server, session):
    address = urllib.parse.urlsplit(server.url)
    with socket.create_connection((address.hostname, address.port), timeout=10) as sock:
        head = (f"POST /v1/sessions/{session.id}/push HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {session.token}\r\n"
                "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        sock.sendall(head.encode())
        chunk = b"x" * 65536
        for _ in range(20):
            sock.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
        sock.sendall(b"0\r\n\r\n")
        answer = b""
        while True:
            data = sock.recv(65536)
            if not data:
                break
            answer += data
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"payload_too_large" in answer
    assert session.get()["version"] == 1


def test_errors_echo_only_a_short_escaped_excerpt(server):
    path = "/v1/" + "z" * 5000 + "%0A"
    status, _, body = server.request("GET", path)
    assert status == 404
    assert len(body["error"]["message"]) < 200 and "\n" not in body["error"]["message"]


def test_huge_numbers_in_queries_are_handled(session):
    for query in ["after=9223372036854775807", "after=99999999999999999999999", "after=9223372036854775807&wait=1"]:
        status, _, body = session.call("GET", "/events?" + query)
        assert status in (200, 400), query
    status, _, body = session.call("GET", "/events?after=9223372036854775807")
    assert status == 200 and body == {"events": [], "last": 0}
    assert session.server.request("GET", "/healthz")[0] == 200


def test_more_checks_in_the_contracts_order(server, session):
    # a bad Idempotency-Key with a stale If-Match: 412 first
    status, _, _ = session.call("POST", "/push", {"screen": "settings"}, headers={"Idempotency-Key": "", "If-Match": '"9"'})
    assert status == 412
    # an unknown deep link (404) before a bad layout (422)
    status, _, _ = server.request("POST", "/v1/sessions", {"layout": "grid", "deepLink": "/nope"})
    assert status == 404
    # 401 says how to authenticate
    status, headers, _ = server.request("GET", f"/v1/sessions/{session.id}")
    assert status == 401 and headers["WWW-Authenticate"] == "Bearer"
