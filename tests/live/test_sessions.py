"""Sessions over live HTTP: create, read, delete, tokens, ETag and If-Match."""
import re


def test_health(server):
    status, headers, body = server.request("GET", "/healthz")
    assert status == 200 and body == {"status": "ok"}
    assert headers["Content-Type"] == "application/json; charset=utf-8"


def test_create_session_starts_on_the_root_screen(server):
    status, headers, state = server.request("POST", "/v1/sessions", {})
    assert status == 201
    assert re.fullmatch(r"s_[A-Za-z0-9_-]{22}", state["id"])
    assert len(state["token"]) >= 43  # 32 random bytes, base64url
    assert headers["ETag"] == '"1"'
    assert headers["Location"] == f"/v1/sessions/{state['id']}"
    assert state["version"] == 1 and state["layout"] == "stack" and state["focus"] == "n1"
    root = state["root"]
    assert root["presentation"] == {"kind": "app"} and root["navigator"] is None
    assert [child["screen"] for child in root["children"]] == ["home"]
    assert root["children"][0]["presentation"] == {"kind": "root"}
    assert state["navigators"] == [{"id": "v0", "stack": ["n1"], "presented": None, "parent": None, "embedded": True}]
    assert state["tabs"] is None and state["flags"] == []


def test_create_session_without_body(server):
    status, _, state = server.request("POST", "/v1/sessions", raw=b"")
    assert status == 201 and state["version"] == 1


def test_get_returns_the_same_state_without_the_token(session):
    state = session.get()
    created = dict(session.state)
    assert "token" not in state
    status, headers, _ = session.call("GET")
    assert headers["ETag"] == '"1"'


def test_tokens_are_unique_and_scoped_to_their_session(server):
    first, second = server.create_session(), server.create_session()
    assert first.token != second.token and first.id != second.id
    status, _, body = server.request("GET", f"/v1/sessions/{first.id}", token=second.token)
    assert status == 401 and body["error"]["code"] == "unauthorized"
    status, _, _ = server.request("GET", f"/v1/sessions/{first.id}", token=first.token)
    assert status == 200


def test_unknown_session_answers_exactly_like_a_wrong_token(server, session):
    wrong = server.request("GET", f"/v1/sessions/{session.id}", token="x" * 43)
    unknown = server.request("GET", "/v1/sessions/s_doesnotexist", token=session.token)
    missing = server.request("GET", f"/v1/sessions/{session.id}")
    assert wrong[0] == unknown[0] == missing[0] == 401
    assert wrong[2] == unknown[2] == missing[2]


def test_delete_removes_the_session_and_its_token(server, session):
    status, _, body = session.call("DELETE")
    assert status == 204 and body is None
    status, _, _ = session.call("GET")
    assert status == 401
    status, _, _ = session.call("DELETE")
    assert status == 401


def test_if_match_guards_mutations(session):
    session.op("push", {"screen": "settings"}, headers={"If-Match": '"1"'})
    assert session.state["version"] == 2
    stale = session.op("push", {"screen": "settings"}, expect=412, headers={"If-Match": '"1"'})
    assert stale["error"]["code"] == "precondition_failed"
    assert session.get()["version"] == 2
    session.op("pop", {}, headers={"If-Match": "*"})
    session.op("push", {"screen": "settings"}, headers={"If-Match": '"7", W/"3"'})
    session.op("pop", {}, headers={"If-Match": '"9", "4"'})
    assert session.get()["version"] == 5


def test_a_412_names_the_current_version_in_its_etag(session):
    session.op("push", {"screen": "settings"})
    status, headers, body = session.call("POST", "/pop", {}, headers={"If-Match": '"1"'})
    assert status == 412 and body["error"]["code"] == "precondition_failed"
    assert headers["ETag"] == '"2"'
    # the client retries with what the 412 told it, without reading the session again
    status, headers, state = session.call("POST", "/pop", {}, headers={"If-Match": headers["ETag"]})
    assert status == 200 and state["version"] == 3 and headers["ETag"] == '"3"'


def test_if_match_on_delete(session):
    status, headers, body = session.call("DELETE", headers={"If-Match": '"5"'})
    assert status == 412 and headers["ETag"] == '"1"'
    status, _, _ = session.call("DELETE", headers={"If-Match": '"1"'})
    assert status == 204


def test_version_grows_by_one_per_mutation_and_etag_follows(session):
    for expected in range(2, 7):
        status, headers, state = session.call("POST", "/push", {"screen": "settings"})
        assert status == 200 and state["version"] == expected
        assert headers["ETag"] == f'"{expected}"'


def test_app_description_is_served(demo_server, tabs_server, server):
    status, _, app = demo_server.request("GET", "/v1/app")
    assert status == 200
    assert app["name"] == "demo" and app["scheme"] == "demo" and app["hosts"] == ["demo.example.com"] and "root" not in app
    assert app["flows"]["main"] == {"root": {"tabs": [{"id": "home", "screen": "home"}, {"id": "account", "screen": "account"}]}}
    assert app["launch"] == [{"unless": "onboarded", "flow": "onboarding"}, {"unless": "signedIn", "flow": "auth"}, {"flow": "main"}]
    assert app["screens"]["settings"]["requires"] == "verified"
    assert {"path": "/settings", "flow": "main", "tab": "account", "steps": [{"screen": "settings", "params": {}}]} in app["routes"]
    status, _, app = tabs_server.request("GET", "/v1/app")
    assert app["root"] == {"tabs": [{"id": "home", "screen": "home"}, {"id": "account", "screen": "account"}]}
    assert app["screens"]["photo"]["style"] == "fullScreen"
    assert app["screens"]["profile"]["params"] == ["userId"]
    assert app["screens"]["home"]["title"] == "Home"
    assert app["screens"]["settings"]["requires"] == "signedIn"
    assert app["screens"]["settings"]["otherwise"] == {"screen": "login", "params": {}}
    assert {"path": "/settings", "tab": "account", "steps": [{"screen": "settings", "params": {}}]} in app["routes"]
    assert "flows" not in app and "flow" not in app["routes"][0]
    status, _, app = server.request("GET", "/v1/app")
    assert app["name"] == "basic" and app["root"] == {"screen": "home"}


def test_head_is_answered_like_get_without_a_body(server):
    status, headers, body = server.request("HEAD", "/healthz")
    assert status == 200 and body is None


def test_if_none_match_answers_304_while_nothing_changed(session):
    status, headers, body = session.call("GET", headers={"If-None-Match": '"1"'})
    assert status == 304 and body is None and headers["ETag"] == '"1"'
    session.op("push", {"screen": "settings"})
    status, headers, body = session.call("GET", headers={"If-None-Match": '"1"'})
    assert status == 200 and body["version"] == 2
    assert session.call("GET", headers={"If-None-Match": "*"})[0] == 304
