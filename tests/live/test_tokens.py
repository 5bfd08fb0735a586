"""Extra tokens with a scope (`POST/GET …/tokens`, `DELETE …/tokens/{token}`, `GET …/access`): a
read token follows a session and changes nothing, a write token changes it, only the owner token
manages tokens, and a revoked token opens nothing from the moment the revocation answers."""
import threading
import time

import pytest

from conftest import EventStream, RunningServer, Session


def issue(session, scope, label=None, expect=201):
    body = {"scope": scope} if label is None else {"scope": scope, "label": label}
    status, headers, answer = session.call("POST", "/tokens", body)
    assert status == expect, answer
    return answer


def as_token(session, token):
    """The same session through another token."""
    return Session(session.server, session.id, token, session.state)


# Every kind of change, as a client sends it: each is 403 to a read token.
CHANGES = [
    ("POST", "/push", {"screen": "profile", "params": {"userId": "2"}}),
    ("POST", "/present", {"screen": "photo", "params": {"photoId": "1"}}),
    ("POST", "/dismiss", {}),
    ("POST", "/set-root", {"screen": "home"}),
    ("POST", "/finish", {"node": "n2", "result": {"status": "cancelled"}}),
    ("POST", "/select-tab", {"tab": "home"}),
    ("POST", "/display-mode", {"mode": "secondaryOnly"}),
    ("POST", "/nodes/n2/presentation", {"dismissible": False}),
    ("DELETE", "/nodes/n1/results/login", None),
    ("POST", "/navigate", {"screen": "followers", "params": {"userId": "2"}}),
    ("POST", "/pop", {}),
    ("POST", "/flags", {"set": ["signedIn"]}),
    ("POST", "/size-class", {"horizontal": "compact"}),
    ("POST", "/deep-link", {"url": "/users/7"}),
    ("PATCH", "/nodes/n1/params", {"set": {"tab": "x"}}),
    ("PUT", "/nodes/n1/ui", {"scroll": 3}),
    ("PUT", "/nodes/n1/list", {"sections": [{"id": "s", "items": []}]}),
    ("PATCH", "/nodes/n1/list", {"delete": ["a"]}),
    ("POST", "/restore", {"version": 1}),
    ("DELETE", "", None),
]


def test_a_read_token_follows_the_session_and_changes_nothing(server):
    session = server.create_session()
    session.op("push", {"screen": "profile", "params": {"userId": "1"}})
    assert session.call("PUT", "/nodes/n2/list", {"sections": [{"id": "s", "items": [{"id": "a", "kind": "row", "content": 1}]}]})[0] == 200
    issued = issue(session, "read", "support")
    assert set(issued) == {"id", "token", "scope", "label", "createdAt"}
    assert (issued["scope"], issued["label"]) == ("read", "support") and issued["token"].startswith("mt_") and issued["id"].startswith("k_")
    reader = as_token(session, issued["token"])
    # It reads what the owner reads: the state, the log, a past version, the link, a list.
    assert reader.get() == session.get()
    assert reader.events()["events"] == session.events()["events"]
    for suffix in ("/versions/1", "/link", "/nodes/n2/list"):
        status, _, answer = reader.call("GET", suffix)
        assert status == 200 and answer == session.call("GET", suffix)[2], suffix
    assert reader.call("GET", "/access")[2] == {"scope": "read", "token": issued["id"]}
    assert session.call("GET", "/access")[2] == {"scope": "owner"}
    # Every change is 403 and changes nothing.
    before = session.get()
    for method, suffix, body in CHANGES:
        status, _, answer = reader.call(method, suffix, body)
        assert status == 403 and answer["error"]["code"] == "forbidden" and "read" in answer["error"]["message"], (method, suffix, answer)
    assert session.get() == before
    # Nor does it manage tokens.
    for method, suffix, body in (("GET", "/tokens", None), ("POST", "/tokens", {"scope": "write"}), ("DELETE", f"/tokens/{issued['id']}", None)):
        status, _, answer = reader.call(method, suffix, body)
        assert status == 403 and "owner" in answer["error"]["message"], (method, suffix)
    assert [token["id"] for token in session.call("GET", "/tokens")[2]["tokens"]] == [issued["id"]]


def test_a_write_token_changes_the_session_but_manages_no_tokens_nor_deletes_it(server):
    session = server.create_session()
    writer = as_token(session, issue(session, "write")["token"])
    state = writer.op("push", {"screen": "profile", "params": {"userId": "3"}})
    assert session.get() == state and writer.call("GET", "/access")[2]["scope"] == "write"
    assert writer.call("POST", "/tokens", {"scope": "read"})[0] == 403
    assert writer.call("DELETE")[0] == 403 and session.get()["version"] == state["version"]


def test_the_owner_lists_and_revokes_and_a_revoked_token_opens_nothing_and_ends_what_it_follows(server):
    session = server.create_session()
    first, second = issue(session, "read", "tv"), issue(session, "write")
    status, _, listed = session.call("GET", "/tokens")
    oldest_first = sorted([first, second], key=lambda token: (token["createdAt"], token["id"]))
    assert status == 200 and [entry["id"] for entry in listed["tokens"]] == [token["id"] for token in oldest_first]
    assert all("token" not in entry for entry in listed["tokens"]), "a listed token shows its secret"
    assert {entry["id"]: entry.get("label") for entry in listed["tokens"]} == {first["id"]: "tv", second["id"]: None}
    reader = as_token(session, first["token"])
    stream = EventStream(reader)
    owners = EventStream(session)
    try:
        assert stream.status == 200 and reader.call("GET", "/events?after=0")[0] == 200
        status, _, _ = session.call("DELETE", f"/tokens/{first['id']}")
        assert status == 204
        # Its stream ends as a deleted session's does, the owner's goes on; the token opens nothing.
        assert stream.wait(lambda frames: any(frame.get("event") == "ended" for frame in frames), timeout=5)
        assert reader.call("GET")[0] == 401 and reader.call("GET", "/access")[0] == 401
        session.op("push", {"screen": "profile", "params": {"userId": "4"}})
        assert owners.read_events(1) and not owners.ended
        assert session.call("DELETE", f"/tokens/{first['id']}")[0] == 404
        assert [entry["id"] for entry in session.call("GET", "/tokens")[2]["tokens"]] == [second["id"]]
    finally:
        stream.close()
        owners.close()


def test_a_long_poll_of_a_revoked_token_is_answered_401(server):
    session = server.create_session()
    issued = issue(session, "read")
    reader = as_token(session, issued["token"])
    answers = []
    poll = threading.Thread(target=lambda: answers.append(reader.call("GET", f"/events?after={session.state['lastEvent']}&wait=20")))
    poll.start()
    time.sleep(0.5)
    assert session.call("DELETE", f"/tokens/{issued['id']}")[0] == 204
    poll.join(10)
    assert answers and answers[0][0] == 401


def test_refused_token_requests_change_nothing(server):
    session, other = server.create_session(), server.create_session()
    for body, expected in (({"scope": "admin"}, 422), ({"scope": "read", "label": "x" * 65}, 422), ({"scope": "read", "role": "x"}, 400),
                           ({"scope": "read", "label": "e" + "\u0301" * 200}, 422), ({"scope": "read", "label": "tab\there"}, 422),
                           ({}, 400), ({"scope": 1}, 400), (None, 400)):
        status, _, answer = session.call("POST", "/tokens", body)
        assert status == expected, (body, answer)
    assert session.call("GET", "/tokens")[2] == {"tokens": []}
    issued = issue(session, "read", "x" * 64)
    assert "label" not in issue(session, "read", "")    # an empty label is none
    session.call("DELETE", f"/tokens/{session.call('GET', '/tokens')[2]['tokens'][-1]['id']}")
    # A token opens its own session only; a made-up one opens none.
    assert as_token(other, issued["token"]).call("GET")[0] == 401
    assert as_token(session, "mt_" + "A" * 43).call("GET")[0] == 401
    assert session.call("DELETE", "/tokens/k_nothing")[0] == 404
    for _ in range(15):
        issue(session, "read")
    answer = issue(session, "write", expect=409)
    assert "16" in answer["error"]["message"]
    assert len(session.call("GET", "/tokens")[2]["tokens"]) == 16


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_tokens_outlive_a_restart_of_a_durable_store_and_go_with_their_session(store, tmp_path):
    location = "memory" if store == "memory" else f"sqlite:{tmp_path / 'tokens.sqlite'}"
    running = RunningServer("--store", location, "--rate-limit", "0")
    try:
        session = running.create_session()
        reader_token = issue(session, "read")["token"]
        if store == "sqlite":
            assert running.stop() == 0
            running = RunningServer("--store", location, "--rate-limit", "0")
            session = Session(running, session.id, session.token, session.state)
            assert as_token(session, reader_token).call("GET")[0] == 200
        assert session.call("DELETE")[0] == 204
        assert as_token(session, reader_token).call("GET")[0] == 401
    finally:
        assert running.stop() == 0


def test_read_only_followers_never_take_the_owners_last_stream(server):
    """Four streams a session (the default): extra tokens hold three at most, the owner the fourth."""
    session = server.create_session()
    reader = as_token(session, issue(session, "read")["token"])
    streams = [EventStream(reader) for _ in range(3)]
    try:
        assert [stream.status for stream in streams] == [200, 200, 200]
        status, _, answer = reader.call("GET", "/events?after=0", headers={"Accept": "text/event-stream"})
        assert status == 429 and "owner" in answer["error"]["message"]
        owners = EventStream(session)
        streams.append(owners)
        assert owners.status == 200
    finally:
        for stream in streams:
            stream.close()
