"""Root flows over real HTTP, on tests/live/apps/fit.json: onboarding → sign-in → main tabs (or a
split desk), chosen by launch rules from the session's flags; a switch is one block in the
contract's order; a deep link waits for its flow and is applied in the switching block; a link
into the shown flow keeps what is shown (ids, lists, other tabs) and changes params in place;
universal links; sessions created signed in; every store, and two instances on PostgreSQL."""
import random

import pytest

from conftest import APPS, RunningServer, split_blocks
from postgres import PostgresCluster

FIT = APPS / "fit.json"


def summary(events):
    """Each event as a short string: type and what it is about."""
    def one(event):
        kind = event["type"]
        if kind == "removed":
            return f"removed {event['screen']} {event['reason']}"
        if kind == "added":
            return f"added {event['screen']}"
        if kind == "finished":
            return f"finished {event['screen']} {event['result']['status']}"
        if kind == "flowChanged":
            return f"flowChanged {event['from']}→{event['to']}"
        if kind == "tabSelected":
            return f"tabSelected {event['tab']}"
        if kind == "pendingChanged":
            pending = event["pending"]
            return f"pendingChanged {pending.get('url', pending.get('operation')) if pending else None}"
        if kind == "paramsChanged":
            return f"paramsChanged {event['node']}"
        return kind
    return [one(event) for event in events]


def screens_on(state, navigator):
    """The screens on a navigator's stack, bottom first."""
    nodes = {}

    def walk(node):
        nodes[node["id"]] = node
        for child in node["children"]:
            walk(child)
    walk(state["root"])
    stack = next(entry["stack"] for entry in state["navigators"] if entry["id"] == navigator)
    return [nodes[node]["screen"] for node in stack]


@pytest.fixture(scope="module")
def fit():
    running = RunningServer("--app", str(FIT), "--rate-limit", "0")
    yield running
    assert running.stop() == 0, "".join(running.log)


def test_get_app_lists_the_flows_and_the_launch_rules(fit):
    app = fit.request("GET", "/v1/app")[2]
    assert "root" not in app and sorted(app["flows"]) == ["auth", "desk", "main", "onboarding"]
    assert app["flows"]["onboarding"] == {"root": {"screen": "welcome"}, "completes": "onboarded"}
    assert app["flows"]["desk"] == {"root": {"split": {"columns": 2, "primary": {"screen": "folders"}}}}
    assert app["launch"][0] == {"unless": "onboarded", "flow": "onboarding"} and app["launch"][-1] == {"flow": "main"}
    assert app["hosts"] == ["fit.example.com"] and app["routes"][2]["flow"] == "main"
    assert app["screens"]["workout"]["key"] == ["id"]


@pytest.mark.parametrize("flags,flow,layout,tabs", [
    ([], "onboarding", "stack", None),
    (["onboarded"], "auth", "stack", None),
    (["onboarded", "signedIn"], "main", "stack", "today"),
    (["onboarded", "signedIn", "desk"], "desk", "split", None),
])
def test_each_launch_path_starts_its_flow_at_version_1(fit, flags, flow, layout, tabs):
    session = fit.create_session(flags=flags)
    state = session.state
    assert (state["flow"], state["layout"], state["version"], state["lastEvent"]) == (flow, layout, 1, 0)
    assert (state["tabs"] or {}).get("selected") == tabs and state["flags"] == sorted(flags)


def test_onboarding_then_sign_in_then_main_tabs_then_sign_out(fit):
    session = fit.create_session()
    welcome = session.state["focus"]
    _, block = session.block("POST", "/finish", {"node": welcome, "result": {"status": "success"}})
    assert summary(block) == [
        "removed welcome flowChanged", "finished welcome success", "flowChanged onboarding→auth", "added login", "flagsChanged"]
    assert block[1]["parent"] == "n0" and block[2]["navigators"] == ["v0"]
    session.op("present", {"screen": "signup"})
    # Sign-in sets the flag: the whole auth flow leaves, top-most first, in one version.
    answer, block = session.block("POST", "/flags", {"set": ["signedIn"]})
    assert summary(block) == [
        "removed signup flowChanged", "removed login flowChanged", "flowChanged auth→main", "added dashboard", "added profile",
        "tabSelected today", "flagsChanged"]
    assert block[2]["navigators"] == ["tab:today", "tab:me"] and answer["flow"] == "main"
    # Sign-out: back to sign-in; the main flow's nodes never come back, ids are never reused.
    _, block = session.block("POST", "/flags", {"clear": ["signedIn"]})
    assert summary(block) == [
        "removed dashboard flowChanged", "removed profile flowChanged", "flowChanged main→auth", "added login", "flagsChanged"]
    assert block[3]["node"] == "n6" and session.get()["tabs"] is None


def test_a_link_waits_across_onboarding_and_sign_in_and_comes_in_the_switching_block(fit):
    session = fit.create_session()
    answer, block = session.block("POST", "/deep-link", {"url": "fit://workouts/7/play"})
    assert summary(block) == ["pendingChanged fit://workouts/7/play"]
    assert answer["pending"] == {"operation": "deepLink", "url": "fit://workouts/7/play", "flow": "main"}
    session.change("finish", {"node": session.state["focus"], "result": {"status": "success"}})
    assert session.get()["pending"]["url"] == "fit://workouts/7/play"
    _, block = session.block("POST", "/finish", {"node": session.state["focus"], "result": {"status": "success"}})
    assert summary(block) == [
        "removed login flowChanged", "finished login success", "flowChanged auth→main", "added dashboard", "added profile",
        "added workout", "added player", "tabSelected today", "flagsChanged", "pendingChanged None"]
    state = session.get()
    assert state["pending"] is None and screens_on(state, "tab:today") == ["dashboard", "workout"]


def test_signing_out_drops_a_pending_link(fit):
    session = fit.create_session(flags=["onboarded"], deepLink="https://fit.example.com/workouts/3")
    assert session.state["pending"]["flow"] == "main" and session.state["version"] == 1
    _, block = session.block("POST", "/flags", {"clear": ["onboarded"]})
    assert summary(block)[-1] == "pendingChanged None" and session.get()["flow"] == "onboarding"


def test_a_session_starts_signed_in_with_its_link_applied(fit):
    session = fit.create_session(flags=["onboarded", "signedIn"], deepLink="/workouts/9/play")
    state = session.state
    assert state["flow"] == "main" and state["version"] == 1 and state["lastEvent"] == 0 and state["pending"] is None
    assert screens_on(state, "tab:today") == ["dashboard", "workout"]
    # A link into an earlier flow is refused, naming the flags; nothing is created.
    status, _, body = fit.request("POST", "/v1/sessions", {"flags": ["onboarded", "signedIn"], "deepLink": "/signup"})
    assert status == 409 and "'signedIn' is clear" in body["error"]["message"], body
    # `layout` belongs to single-root apps.
    status, _, body = fit.request("POST", "/v1/sessions", {"layout": "split"})
    assert status == 422 and "declares flows" in body["error"]["message"], body


def test_a_link_keeps_what_is_shown(fit):
    session = fit.create_session(flags=["onboarded", "signedIn"])
    session.change("deep-link", {"url": "/workouts/7"})
    workout = session.get()["focus"]
    session.block("PUT", f"/nodes/{workout}/list", {"sections": [{"id": "s", "items": [{"id": "a", "kind": "set"}]}]})
    # The same link: a no-op, no version, no event.
    before = session.get()
    status, _, answer = session.call("POST", "/deep-link", {"url": "/workouts/7"})
    assert status == 200 and answer == before and session.events(before["lastEvent"])["events"] == []
    # Deeper: the workout keeps its id and its list; the player comes above.
    _, block = session.block("POST", "/deep-link", {"url": "/workouts/7/play"})
    assert summary(block) == ["added player"]
    assert session.call("GET", f"/nodes/{workout}/list")[2]["version"] == 1
    # Shallower, as a universal link: what lies above goes.
    _, block = session.block("POST", "/deep-link", {"url": "https://FIT.example.com/workouts/7"})
    assert summary(block) == ["removed player deepLink", "finished player cancelled"]
    # Other params than the key change in place.
    _, block = session.block("POST", "/deep-link", {"url": "/workouts/7?mode=edit"})
    assert summary(block) == [f"paramsChanged {workout}"] and block[0]["params"] == {"id": "7", "mode": "edit"}
    # A fresh step is replaced although it matches; another key is another node.
    _, block = session.block("POST", "/deep-link", {"url": "/workouts/7/again"})
    assert summary(block) == ["removed workout deepLink", "added workout"]
    _, block = session.block("POST", "/deep-link", {"url": "/workouts/8"})
    assert summary(block) == ["removed workout deepLink", "added workout"]


def test_other_tabs_keep_their_stacks_and_a_window_cover_goes(fit):
    session = fit.create_session(flags=["onboarded", "signedIn"])
    session.op("select-tab", {"tab": "me"})
    session.op("push", {"screen": "folders"})
    session.op("present", {"screen": "editor"})
    _, block = session.block("POST", "/deep-link", {"url": "/workouts/1"})
    assert summary(block) == ["removed editor deepLink", "finished editor cancelled", "added workout", "tabSelected today"]
    assert screens_on(session.get(), "tab:me") == ["profile", "folders"]
    # A guarded step shows its flow and keeps the rest pending, as before.
    _, block = session.block("POST", "/deep-link", {"url": "/me/settings"})
    assert summary(block) == ["removed folders deepLink", "added paywall", "tabSelected me", "pendingChanged navigate"]


def test_params_change_in_place(fit):
    session = fit.create_session(flags=["onboarded", "signedIn"], deepLink="/workouts/4")
    node = session.state["focus"]
    answer, block = session.block("PATCH", f"/nodes/{node}/params", {"set": {"mode": "edit"}})
    assert summary(block) == [f"paramsChanged {node}"] and answer["focus"] == node
    before = session.get()
    status, _, same = session.call("PATCH", f"/nodes/{node}/params", {"set": {"mode": "edit"}})
    assert status == 200 and same == before
    for body, status, hint in [
        ({"set": {"colour": "red"}}, 422, "does not declare the param 'colour'"),
        ({"unset": ["mode"]}, 422, "requires the param 'mode'"),
        ({"set": {"mode": None}}, 422, "requires params: mode"),
        ({"sett": {}}, 400, "did you mean 'set'"),
    ]:
        answer = session.call("PATCH", f"/nodes/{node}/params", body)
        assert answer[0] == status and hint in answer[2]["error"]["message"], answer
    assert session.call("PATCH", "/nodes/n99/params", {"set": {}})[0] == 404
    assert session.get() == before


@pytest.mark.parametrize("url,status,hint", [
    ("https://shop.example.com/workouts/1", 404, "fit.example.com"),
    ("http://fit.example.com/workouts/1", 404, "'https://fit.example.com/workouts/1'"),
    ("/workuots/1", 404, "did you mean '/workouts/1'?"),
    ("/folders/1", 409, "'desk' is set"),
])
def test_links_that_cannot_be_followed_say_what_to_send(fit, url, status, hint):
    session = fit.create_session(flags=["onboarded", "signedIn"])
    answer = session.call("POST", "/deep-link", {"url": url})
    assert answer[0] == status and hint in answer[2]["error"]["message"], answer
    assert session.get()["version"] == 1


def apply_random(session, rng):
    """One random operation on a session of the fit app; its status."""
    state = session.state
    nodes = []

    def walk(node):
        nodes.append(node["id"])
        for child in node["children"]:
            walk(child)
    walk(state["root"])
    choice = rng.randrange(8)
    if choice == 0:
        url = rng.choice(["/tour/1", "/signup", "/workouts/1", "/workouts/2/play", "/workouts/1?mode=edit", "/workouts/2/again",
                          "/me/settings", "/folders/3", "https://fit.example.com/workouts/3"])
        return session.call("POST", "/deep-link", {"url": url})[0]
    if choice == 1:
        flag = rng.choice(["onboarded", "signedIn", "desk", "premium"])
        return session.call("POST", "/flags", {rng.choice(["set", "clear"]): [flag]})[0]
    if choice == 2:
        return session.call("POST", "/finish", {"node": rng.choice(nodes), "result": {"status": rng.choice(["success", "cancelled"])}})[0]
    if choice == 3:
        return session.call("PATCH", f"/nodes/{rng.choice(nodes)}/params", {"set": {"mode": rng.choice(["view", "edit"])}})[0]
    if choice == 4:
        return session.call("POST", "/pop", {})[0]
    if choice == 5:
        return session.call("POST", "/dismiss", {})[0]
    screen = rng.choice(["tour", "workout", "player", "settings", "editor", "folder"])
    params = {"tour": {"page": 1}, "workout": {"id": "1", "mode": "view"}, "player": {"id": "1"}, "folder": {"id": "1"}}.get(screen, {})
    return session.call("POST", "/navigate", {"screen": screen, "params": params})[0]


def replay(start, blocks):
    """The live nodes by replaying `added` and `removed` events on the nodes of `start`."""
    live = dict(start)
    for block in blocks:
        for event in block:
            if event["type"] == "added":
                live[event["node"]] = event["screen"]
            elif event["type"] == "removed":
                assert live.pop(event["node"], None) is not None, event
    return live


def tree_nodes(state):
    found = {}

    def walk(node):
        if node["id"] != "n0":
            found[node["id"]] = node["screen"]
        for child in node["children"]:
            walk(child)
    walk(state["root"])
    return found


@pytest.mark.parametrize("store", ["memory", "sqlite", "postgres"])
def test_random_flows_keep_the_contract_on_every_store(tmp_path, store):
    """Random operations and links: every answer is one whole block or none, and replaying the
    change log from creation gives the live nodes, after a restart too."""
    cluster = PostgresCluster.create() if store == "postgres" else None
    url = cluster.url() if cluster else "memory" if store == "memory" else f"sqlite:{tmp_path / 'flows.sqlite'}"
    server = RunningServer("--app", str(FIT), "--store", url, "--rate-limit", "0")
    rng = random.Random(2026)
    try:
        session = server.create_session()
        initial = tree_nodes(session.state)
        switches = 0
        for _ in range(250):
            before = session.get()
            status = apply_random(session, rng)
            after = session.get()
            if status != 200 or after["version"] == before["version"]:
                assert after == before, (status, before, after)     # a refusal or a no-op changes nothing
                continue
            events = session.events(before["lastEvent"])["events"]
            assert [block[0]["version"] for block in split_blocks(events)] == [after["version"]]
            switches += any(event["type"] == "flowChanged" for event in events)
        assert replay(initial, split_blocks(session.events(0)["events"])) == tree_nodes(session.get())
        assert switches > 5
        if store != "memory":
            state = session.get()
            assert server.stop() == 0, "".join(server.log)
            server = RunningServer("--app", str(FIT), "--store", url, "--rate-limit", "0")
            session.server = server
            assert session.get() == state
    finally:
        server.stop()
        if cluster:
            cluster.cleanup()


def test_two_instances_on_postgres_see_one_flow_switch(tmp_path):
    cluster = PostgresCluster.create()
    servers = []
    try:
        servers = [RunningServer("--app", str(FIT), "--store", cluster.url(), "--rate-limit", "0") for _ in range(2)]
        session = servers[0].create_session(flags=["onboarded"], deepLink="/workouts/5")
        on_b = session.on(servers[1])
        assert on_b.get()["pending"]["url"] == "/workouts/5"
        _, block = on_b.block("POST", "/finish", {"node": on_b.state["focus"], "result": {"status": "success"}})
        assert "flowChanged auth→main" in summary(block)
        state = session.get()
        assert state == on_b.get() and state["flow"] == "main" and screens_on(state, "tab:today") == ["dashboard", "workout"]
        assert summary(session.events(0)["events"]) == summary(block)
    finally:
        for server in servers:
            server.stop()
        cluster.cleanup()


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_time_travel_shows_the_flow_of_then_and_does_not_restore_across_a_switch(tmp_path, store):
    url = "memory" if store == "memory" else f"sqlite:{tmp_path / 'travel.sqlite'}"
    server = RunningServer("--app", str(FIT), "--store", url, "--rate-limit", "0")
    try:
        session = server.create_session()
        session.change("finish", {"node": session.state["focus"], "result": {"status": "success"}})
        session.change("flags", {"set": ["signedIn"]})
        session.change("deep-link", {"url": "/workouts/1"})
        for version, flow, screens in [(1, "onboarding", ["welcome"]), (2, "auth", ["login"]), (3, "main", ["dashboard"])]:
            past = session.call("GET", f"/versions/{version}")[2]
            assert past["flow"] == flow and past["version"] == version, past
            assert screens_on(past, past["navigators"][0]["id"]) == screens
        status, _, body = session.call("POST", "/restore", {"version": 2})
        assert status == 409 and "flags are not restored" in body["error"]["message"], body
        assert session.get()["version"] == 4
        status, _, answer = session.call("POST", "/restore", {"version": 3})
        assert status == 200 and answer["flow"] == "main" and answer["restored"]["version"] == 3, answer
        assert summary(session.events(answer["lastEvent"] - 1)["events"]) == ["removed workout restore"]
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_undo_does_not_cross_a_sign_out_and_a_sign_in(fit):
    """After a sign-out and a sign-in the session shows the main flow again, but a version of the
    earlier sign-in is not this one's: restoring it is 409 (reading it is allowed); a version
    after the last switch is restored as ever."""
    session = fit.create_session(flags=["onboarded", "signedIn"])
    session.op("deep-link", {"url": "/workouts/1"})
    earlier = session.get()
    assert earlier["flow"] == "main"
    session.op("flags", {"clear": ["signedIn"]})
    session.op("flags", {"set": ["signedIn"]})
    switched = session.get()
    assert switched["flow"] == "main"
    status, _, body = session.call("POST", "/restore", {"version": earlier["version"]})
    assert status == 409 and "last switch of flows" in body["error"]["message"], body
    assert session.get()["version"] == switched["version"]
    assert session.call("GET", f"/versions/{earlier['version']}")[0] == 200
    session.op("deep-link", {"url": "/workouts/2"})
    status, _, answer = session.call("POST", "/restore", {"version": switched["version"]})
    assert status == 200 and answer["restored"]["version"] == switched["version"], answer


def test_params_set_in_place_keep_within_the_node_limit():
    server = RunningServer("--app", str(FIT), "--rate-limit", "0", "--max-param-bytes", "64")
    try:
        workout = "w" * 20
        session = server.create_session(flags=["onboarded", "signedIn"], deepLink=f"/workouts/{workout}")
        node = session.state["focus"]
        # what is set is small, but the node's params would be over the limit with it
        status, _, body = session.call("PATCH", f"/nodes/{node}/params", {"set": {"mode": "m" * 30}})
        assert status == 422 and "--max-param-bytes" in body["error"]["message"], body
        assert session.get()["version"] == 1
        assert session.call("PATCH", f"/nodes/{node}/params", {"set": {"mode": "edit"}})[0] == 200
    finally:
        assert server.stop() == 0, "".join(server.log)
