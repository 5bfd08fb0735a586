"""Retries and limits over live HTTP: Idempotency-Key, session expiry, and every configured limit."""
import json
import subprocess
import time
import uuid

import pytest

from conftest import APPS, BINARY, RunningServer


@pytest.fixture(scope="module")
def strict():
    running = RunningServer("--app", str(APPS / "basic.json"), "--session-ttl", "1s", "--rate-limit", "5",
                            "--rate-burst", "5", "--max-nodes", "5", "--max-url-bytes", "200",
                            "--max-header-bytes", "600", "--max-sessions", "40", "--max-list-items", "3")
    yield running
    assert running.stop() == 0


def key():
    return str(uuid.uuid4())


def test_the_same_key_applies_once_and_answers_the_same(session):
    headers = {"Idempotency-Key": key()}
    first = session.call("POST", "/push", {"screen": "settings"}, headers=headers)
    again = session.call("POST", "/push", {"screen": "settings"}, headers=headers)
    assert first[0] == again[0] == 200 and first[2] == again[2]
    assert again[1]["ETag"] == '"2"'
    assert session.get()["version"] == 2
    # the stored answer wins even though the version moved on
    session.op("push", {"screen": "settings"})
    replay = session.call("POST", "/push", {"screen": "settings"}, headers={**headers, "If-Match": '"1"'})
    assert replay[0] == 200 and replay[2]["version"] == 2


def test_a_reused_key_with_another_body_is_422(session):
    headers = {"Idempotency-Key": key()}
    session.op("push", {"screen": "settings"}, headers=headers)
    body = session.op("push", {"screen": "profile", "params": {"userId": "1"}}, expect=422, headers=headers)
    assert "Idempotency-Key" in body["error"]["message"]
    assert session.get()["version"] == 2


def test_keys_are_scoped_to_their_session(server):
    first, second = server.create_session(), server.create_session()
    headers = {"Idempotency-Key": key()}
    first.op("push", {"screen": "settings"}, headers=headers)
    state = second.op("push", {"screen": "settings"}, headers=headers)
    assert state["id"] == second.id and state["version"] == 2


def test_list_puts_are_idempotent_too(session):
    headers = {"Idempotency-Key": key()}
    for _ in range(2):
        status, _, body = session.call("PUT", "/nodes/n1/list", {"sections": []}, headers=headers)
        assert status == 200 and body["version"] == 1
    assert session.get()["version"] == 2


def test_session_creation_with_a_key(server):
    headers = {"Idempotency-Key": key()}
    first = server.request("POST", "/v1/sessions", {"layout": "split"}, headers=headers)
    again = server.request("POST", "/v1/sessions", {"layout": "split"}, headers=headers)
    assert first[0] == again[0] == 201 and first[2]["id"] == again[2]["id"]
    assert "Idempotent-Replayed" not in first[1] and again[1]["Idempotent-Replayed"] == "true"
    other = server.request("POST", "/v1/sessions", {"layout": "stack"}, headers=headers)
    assert other[0] == 422


def test_malformed_keys_are_400(session):
    for bad in ["", "has space", "x" * 300]:
        status, _, body = session.call("POST", "/push", {"screen": "settings"}, headers={"Idempotency-Key": bad})
        assert status == 400, bad


@pytest.mark.serial
def test_idle_sessions_expire(strict):
    session = strict.create_session()
    assert session.call("GET")[0] == 200
    time.sleep(1.6)
    status, _, body = session.call("GET")
    assert status == 401


@pytest.mark.serial
def test_requests_per_second_per_session(strict):
    session = strict.create_session()
    statuses = [session.call("GET")[0] for _ in range(8)]
    assert statuses[:5] == [200] * 5 and 429 in statuses[5:]
    status, headers, body = session.call("GET")
    assert status == 429 and body["error"]["code"] == "rate_limited" and int(headers["Retry-After"]) >= 1
    other = strict.create_session()
    assert other.call("GET")[0] == 200


@pytest.mark.serial
def test_nodes_per_session(strict):
    session = strict.create_session()
    for _ in range(3):
        session.op("push", {"screen": "settings"})
    time.sleep(0.4)  # the rate limit refills two requests, well inside the session's 1 s idle expiry
    body = session.op("push", {"screen": "settings"}, expect=409)
    assert "limit of 5" in body["error"]["message"]


def test_list_size(strict):
    session = strict.create_session()
    items = [{"id": str(index), "kind": "k", "content": None} for index in range(4)]
    status, _, body = session.call("PUT", "/nodes/n1/list", {"sections": [{"id": "a", "items": items}]})
    assert status == 422 and "at most 3" in body["error"]["message"]


def test_url_and_header_sizes_answer_in_json(strict):
    status, _, body = strict.request("GET", "/healthz?" + "x" * 300)
    assert status == 414 and body["error"]["code"] == "uri_too_long"
    status, _, body = strict.request("GET", "/healthz", headers={"X-Big": "y" * 700})
    assert status == 431 and body["error"]["code"] == "headers_too_large"


def test_default_url_and_header_limits_hold_up_to_the_limit_and_answer_in_json_past_it(server):
    """The connection memory is sized to the default limits (8 KiB target, 16 KiB headers) plus
    room for libmicrohttpd's own records, so the server's JSON answers, not libmicrohttpd's."""
    status, _, _ = server.request("GET", "/healthz?" + "x" * 8000, headers={"X-Big": "y" * 16000})
    assert status == 200
    status, _, body = server.request("GET", "/healthz?" + "x" * 8300)
    assert status == 414 and body["error"]["code"] == "uri_too_long"
    status, _, body = server.request("GET", "/healthz", headers={"X-Big": "y" * 30000})
    assert status == 431 and body["error"]["code"] == "headers_too_large"
    assert server.request("GET", "/healthz")[0] == 200


@pytest.mark.serial
def test_max_sessions(strict):
    time.sleep(1.6)  # earlier sessions expire
    statuses = [strict.request("POST", "/v1/sessions", {})[0] for _ in range(45)]
    assert statuses.count(201) == 40 and statuses[-1] == 503
    status, headers, body = strict.request("POST", "/v1/sessions", {})
    assert body["error"]["code"] == "unavailable"
    assert headers["Retry-After"] == "60"


def test_the_default_limits_take_a_thousand_cell_menu_and_a_patch_of_one_dish(server):
    """The list a restaurant app states: 1,000 dishes of 100 bytes of content each (about 172,000
    bytes as --max-list-bytes counts them), PUT whole once, then one dish sold out by a patch."""
    session = server.create_session()
    dishes = [{"id": f"d{index}", "kind": "dish", "content": {"name": f"Dish {index}", "about": "x" * (73 - len(str(index)))}}
              for index in range(1000)]
    assert all(len(json.dumps(dish["content"], separators=(",", ":"))) == 100 for dish in dishes)
    status, _, body = session.call("PUT", "/nodes/n1/list", {"sections": [{"id": "menu", "items": dishes}]})
    assert status == 200 and body["version"] == 1, body
    status, _, body = session.call("PATCH", "/nodes/n1/list", {"upsert": [{"cell": {**dishes[412], "content": {"soldOut": True}}}]})
    assert status == 200 and body["diff"]["items"]["updated"] == [{"section": 0, "item": 412}], body


def test_the_server_states_the_worst_case_of_its_sessions_and_refuses_one_over_its_memory_budget(server):
    """Every session at its limits must fit --memory-budget: the start says what that takes, and
    a configuration that could take more does not start, naming the most sessions that fit."""
    assert server.logged("sessions at worst: 10000 × 832 KiB = 7.9 GiB of the 8.0 GiB --memory-budget")  # the memory store
    refused = subprocess.run([str(BINARY), "--port", "0", "--store", "memory", "--max-sessions", "100000"],
                             capture_output=True, text=True, timeout=20)
    assert refused.returncode != 0
    assert ("100000 sessions may take up to 79.3 GiB at worst (832 KiB each: 2.25 times --max-session-bytes, and "
            "--memory-history-bytes in the memory store), more than --memory-budget 8.0 GiB: lower --max-sessions "
            "to at most 10082") in refused.stderr, refused.stderr
    small = subprocess.run([str(BINARY), "--port", "0", "--max-sessions", "1000", "--memory-budget", "100000000", "--check-app",
                            str(APPS / "basic.json")], capture_output=True, text=True, timeout=20)
    assert small.returncode != 0 and "lower --max-sessions to at most 169" in small.stderr, small.stderr
