"""Small mistakes are answered with what to do: an entity tag without quotes, a path with a
trailing slash, a deep link with another scheme. Each changes nothing."""


def message(document):
    return document["error"]["message"]


def test_an_unquoted_if_match_is_400_saying_to_quote_it(session):
    status, _, body = session.call("POST", "/push", {"screen": "settings"}, headers={"If-Match": "1"})
    assert status == 400 and body["error"]["code"] == "invalid_request"
    assert 'send If-Match: "1"' in message(body)
    status, _, body = session.call("DELETE", headers={"If-Match": "1"})
    assert status == 400 and "quoted" in message(body)
    status, _, body = session.call("GET", headers={"If-None-Match": "1"})
    assert status == 400 and 'send If-None-Match: "1"' in message(body)
    assert session.get()["version"] == 1
    # a quoted tag, a weak one, a list and `*` still work
    for tag in ['"1"', 'W/"1"', '"0", "1"', "*"]:
        assert session.call("GET", headers={"If-None-Match": tag})[0] == 304, tag


def test_an_unquoted_if_match_keeps_the_contracts_order(server, session):
    assert server.request("POST", f"/v1/sessions/{session.id}/push", {}, headers={"If-Match": "1"})[0] == 401
    assert session.call("PUT", "/push", headers={"If-Match": "1"})[0] == 405


def test_a_trailing_slash_is_named_in_the_404(server, session):
    status, _, body = server.request("POST", "/v1/sessions/", {})
    assert status == 404
    assert message(body) == "no such path: '/v1/sessions/'; paths have no trailing slash — try '/v1/sessions'"
    status, _, body = session.call("POST", "/push/", {"screen": "settings"})
    assert status == 404 and f"try '/v1/sessions/{session.id}/push'" in message(body)
    status, _, body = server.request("GET", "/v1/nope/")
    assert status == 404 and message(body) == "no such path: '/v1/nope/'"


def test_a_deep_link_with_another_scheme_names_the_apps_scheme(tabs_server):
    status, _, body = tabs_server.request("POST", "/v1/sessions", {"deepLink": "other://users/1"})
    assert status == 404 and body["error"]["code"] == "not_found"
    assert "this app's scheme is 'tabs' (try 'tabs://users/1')" in message(body)
    session = tabs_server.create_session()
    status, _, body = session.call("POST", "/deep-link", {"url": "other://users/1"})
    assert status == 404 and "this app's scheme is 'tabs'" in message(body)
    assert session.get()["version"] == 1
    assert session.op("deep-link", {"url": "tabs://users/1"})["version"] == 2
