"""The app description drives navigation: split, tabs, navigate, deep links, flow results, guards."""
import json
import subprocess

from conftest import BINARY, RunningServer
from test_navigation import navigator, nodes, removals


# --- split -------------------------------------------------------------------------------

def test_split_push_from_primary_replaces_detail(server):
    session = server.create_session(layout="split")
    assert [item["id"] for item in session.state["navigators"]] == ["primary", "detail"]
    assert navigator(session.state, "detail")["stack"] == []
    state = session.op("navigate", {"screen": "profile", "params": {"userId": "1"}})
    assert navigator(state, "detail")["stack"] == ["n2"] and state["focus"] == "n2"
    assert nodes(state)["n2"]["presentation"] == {"kind": "detail"} and nodes(state)["n2"]["navigator"] == "detail"
    assert [child["id"] for child in nodes(state)["n1"]["children"]] == ["n2"]
    state = session.op("push", {"screen": "followers", "params": {"userId": "1"}})          # from detail
    assert navigator(state, "detail")["stack"] == ["n2", "n3"]
    state, block = session.block("POST", "/push", {"screen": "profile", "params": {"userId": "2"}, "from": "n1"})  # from primary
    assert navigator(state, "detail")["stack"] == ["n4"]
    assert removals(session) == [("n3", "setRoot"), ("n2", "setRoot")]
    assert block[:2] == [{**block[0], "type": "removed", "node": "n3", "screen": "followers", "reason": "setRoot", "navigator": "detail"},
                         {**block[1], "type": "removed", "node": "n2", "screen": "profile", "reason": "setRoot", "navigator": "detail"}]
    assert {key: value for key, value in block[2].items() if key not in ("seq", "version", "at", "final", "focus")} == {
        "type": "added", "node": "n4", "screen": "profile", "title": "Profile", "params": {"userId": "2"}, "parent": "n1",
        "navigator": "detail", "presentation": {"kind": "detail"}}
    assert len(block) == 3
    # Popping the detail's root empties it; then there is nothing to pop.
    state = session.op("pop", {"navigator": "detail"})
    assert navigator(state, "detail")["stack"] == [] and state["focus"] == "n1" and state["compactStack"] == ["n1"]
    session.op("pop", {"navigator": "detail"}, expect=409)


# --- tabs --------------------------------------------------------------------------------

def test_tabs_keep_their_own_stacks(tabs_server):
    session = tabs_server.create_session()
    state = session.state
    assert state["tabs"] == {"selected": "home", "form": "tabBar", "items": [{"id": "home", "navigator": "tab:home"},
                                                                               {"id": "account", "navigator": "tab:account"}]}
    assert [nodes(state)[id]["presentation"] for id in ("n1", "n2")] == [{"kind": "tab"}, {"kind": "tab"}]
    assert state["focus"] == "n1"
    session.op("navigate", {"screen": "profile", "params": {"userId": "7"}})
    state = session.op("select-tab", {"tab": "account"})
    assert state["tabs"]["selected"] == "account" and state["focus"] == "n2"
    # A window-level sheet covers the tab bar: the tab changes only with it dismissed.
    session.op("navigate", {"screen": "onboarding"})
    assert session.op("select-tab", {"tab": "home"}, expect=409)["error"]["code"] == "covered"
    state = session.op("select-tab", {"tab": "home", "dismiss": True})
    assert state["focus"] == "n3" and navigator(state, "tab:home")["stack"] == ["n1", "n3"]
    assert navigator(state, "tab:account")["presented"] is None
    # A context-level one stays inside its tab and comes back with it.
    session.op("select-tab", {"tab": "account"})
    session.op("present", {"screen": "onboarding", "style": "overCurrentContext"})
    state = session.op("select-tab", {"tab": "home"})
    assert state["focus"] == "n3" and navigator(state, "tab:account")["presented"] == "n5"
    assert session.op("select-tab", {"tab": "account"})["focus"] == "n5"
    session.op("select-tab", {"tab": "nowhere"}, expect=422)
    session.op("select-tab", {}, expect=400)


def test_a_tabs_app_cannot_be_split(tabs_server):
    status, _, body = tabs_server.request("POST", "/v1/sessions", {"layout": "split"})
    assert status == 422


def test_select_tab_without_tabs_is_422(session):
    session.op("select-tab", {"tab": "home"}, expect=422)


# --- navigate ----------------------------------------------------------------------------

def test_navigate_follows_the_app_description(session):
    state = session.op("navigate", {"screen": "photo", "params": {"photoId": "1"}})
    assert nodes(state)["n2"]["presentation"] == {"kind": "present", "style": "fullScreen", "level": "window"}
    session.op("dismiss")
    state = session.op("navigate", {"screen": "onboarding"})
    assert navigator(state, "v2")["embedded"] is True
    state = session.op("navigate", {"screen": "onboardingStep", "params": {"step": 1}})
    assert nodes(state)["n4"]["presentation"] == {"kind": "push"} and nodes(state)["n4"]["navigator"] == "v2"
    session.op("navigate", {"screen": "nowhere"}, expect=422)
    session.op("navigate", {"screen": "profile"}, expect=422)
    session.op("navigate", {"screen": "settings", "from": "n99"}, expect=404)
    session.op("navigate", {}, expect=400)


# --- deep links --------------------------------------------------------------------------

def test_deep_link_builds_the_route_with_normal_operations(session):
    state = session.op("deep-link", {"url": "/users/42/followers"})
    assert navigator(state, "v0")["stack"] == ["n1", "n2", "n3"]
    assert nodes(state)["n2"]["params"] == {"userId": "42"} and nodes(state)["n3"]["screen"] == "followers"
    assert session.call("GET", "/link")[2] == {"url": "/users/42/followers"}


def test_deep_link_forms_query_and_percent_decoding(session):
    # profile declares userId only, which the path gives: the query sets nothing
    state = session.op("deep-link", {"url": "basic://users/a%20b/?ref=mail&x=1&userId=z"})
    assert nodes(state)["n2"]["params"] == {"userId": "a b"}
    assert session.call("GET", "/link")[2] == {"url": "/users/a%20b"}
    state = session.op("deep-link", {"url": "/users/9/"})
    assert nodes(state)["n3"]["params"] == {"userId": "9"}


def test_deep_link_resets_while_modals_are_open(session):
    session.op("push", {"screen": "settings"})                         # n2
    session.op("present", {"screen": "onboarding"})                     # n3
    session.op("push", {"screen": "onboardingStep", "params": {"step": 1}})   # n4
    session.op("present", {"screen": "photo", "params": {"photoId": "p"}})    # n5
    state, block = session.block("POST", "/deep-link", {"url": "/photos/9"})
    assert [item["id"] for item in state["navigators"]] == ["v0", "v3"]
    assert navigator(state, "v0")["stack"] == ["n1"] and navigator(state, "v3")["stack"] == ["n6"]
    assert removals(session) == [("n5", "deepLink"), ("n4", "deepLink"), ("n3", "deepLink"), ("n2", "deepLink")]
    assert [(event["type"], event["node"], event.get("reason"), event.get("navigator")) for event in block] == [
        ("removed", "n5", "deepLink", "v2"), ("removed", "n4", "deepLink", "v1"), ("removed", "n3", "deepLink", "v1"),
        ("removed", "n2", "deepLink", "v0"), ("added", "n6", None, "v3")]
    assert {key: block[-1][key] for key in ("screen", "params", "parent", "presentation", "presentedBy", "embedded")} == {
        "screen": "photo", "params": {"photoId": "9"}, "parent": "n1", "presentation": {"kind": "present", "style": "fullScreen", "level": "window"},
        "presentedBy": "v0", "embedded": False}
    assert session.call("GET", "/link")[2] == {"url": "/photos/9"}


def test_step_overrides_presentation(session):
    state = session.op("deep-link", {"url": "/sheet"})
    assert nodes(state)["n2"]["presentation"] == {"kind": "present", "style": "pageSheet", "level": "window"}


def test_a_failing_deep_link_changes_nothing(session):
    session.op("push", {"screen": "settings"})
    before = session.get()
    # its second step pushes onto the photo's sheet, which has no navigation stack
    body = session.op("deep-link", {"url": "/broken"}, expect=409)
    message = body["error"]["message"]
    assert "route '/broken'" in message and "step 2 (screen 'settings')" in message and '"embedInNavigation": true' in message, message
    session.op("deep-link", {"url": "/nowhere/at/all"}, expect=404)
    session.op("deep-link", {"url": "other://users/1"}, expect=404)
    session.op("deep-link", {"url": "users/1"}, expect=404)
    assert session.get() == before and session.events()["last"] == before["lastEvent"] == 1


def test_link_is_null_when_no_route_describes_the_state(session):
    status, _, body = session.call("GET", "/link")
    assert status == 200 and body == {"url": None}
    session.op("push", {"screen": "settings"})
    assert session.call("GET", "/link")[:3:2] == (200, {"url": None})
    session.op("deep-link", {"url": "/users/3"})
    assert session.call("GET", "/link")[:3:2] == (200, {"url": "/users/3"})


def test_sessions_may_start_with_a_deep_link(server):
    status, _, state = server.request("POST", "/v1/sessions", {"deepLink": "/users/5/followers"})
    assert status == 201 and state["version"] == 1 and state["focus"] == "n3" and state["lastEvent"] == 0
    status, _, events = server.request("GET", f"/v1/sessions/{state['id']}/events", token=state["token"])
    assert events == {"events": [], "last": 0}
    status, _, body = server.request("POST", "/v1/sessions", {"deepLink": "/nope"})
    assert status == 404


def test_deep_link_into_a_tab(tabs_server):
    session = tabs_server.create_session()
    session.op("navigate", {"screen": "profile", "params": {"userId": "1"}})     # on home
    session.op("select-tab", {"tab": "account"})
    state = session.op("deep-link", {"url": "tabs://users/2"})
    assert state["tabs"]["selected"] == "home"
    assert navigator(state, "tab:home")["stack"] == ["n1", "n4"]
    assert nodes(state)["n4"]["params"] == {"userId": "2"}
    assert session.call("GET", "/link")[2] == {"url": "/users/2"}


# --- flow results and guards --------------------------------------------------------------

def test_finish_removes_the_flow_as_shown_and_reports_to_the_parent(session):
    session.op("push", {"screen": "settings"})                                   # n2
    session.op("present", {"screen": "onboarding"})                              # n3
    session.op("push", {"screen": "onboardingStep", "params": {"step": 1}})      # n4
    state, events = session.block("POST", "/finish", {"node": "n3", "result": {"status": "success", "value": {"done": True}}})
    assert set(nodes(state)) == {"n0", "n1", "n2"}
    assert [(event["node"], event["type"], event.get("reason"), event.get("navigator")) for event in events] == [
        ("n4", "removed", "finish", "v1"), ("n3", "removed", "finish", "v1"), ("n3", "finished", None, None)]
    assert {key: events[-1][key] for key in ("screen", "parent", "result")} == {
        "screen": "onboarding", "parent": "n2", "result": {"status": "success", "value": {"done": True}}}
    state, events = session.block("POST", "/finish", {"node": "n2", "result": {"status": "cancelled"}})
    assert set(nodes(state)) == {"n0", "n1"}
    assert [(event["type"], event["node"]) for event in events] == [("removed", "n2"), ("finished", "n2")]
    assert events[0]["reason"] == "finish" and events[0]["navigator"] == "v0"
    assert events[-1]["parent"] == "n1" and events[-1]["result"] == {"status": "cancelled"}


def test_finish_errors(session):
    session.op("finish", {"node": "n1", "result": {"status": "success"}}, expect=409)
    session.op("finish", {"node": "n0", "result": {"status": "success"}}, expect=409)
    session.op("finish", {"node": "n9", "result": {"status": "success"}}, expect=404)
    session.op("finish", {"node": "n9", "result": {"status": "maybe"}}, expect=404)
    session.op("push", {"screen": "settings"})
    session.op("finish", {"node": "n2", "result": {"status": "maybe"}}, expect=422)
    session.op("finish", {"node": "n2"}, expect=400)
    session.op("finish", {"node": "n2", "result": "success"}, expect=400)
    session.op("finish", {"result": {"status": "success"}}, expect=400)


def test_guard_login_resume(session):
    state = session.op("deep-link", {"url": "/secret/3"})
    login = state["focus"]
    assert nodes(state)[login]["screen"] == "login"
    assert state["pending"] == {"operation": "navigate", "steps": [{"screen": "secret", "params": {}}], "flow": login}
    state = session.op("finish", {"node": login, "result": {"status": "success"}})
    assert state["flags"] == ["signedIn"] and state["pending"] is None
    assert nodes(state)[state["focus"]]["screen"] == "secret"
    assert [nodes(state)[id]["screen"] for id in navigator(state, "v0")["stack"]] == ["home", "profile", "secret"]
    # with the flag set, the guard lets navigate through at once
    state = session.op("navigate", {"screen": "secret"})
    assert nodes(state)[state["focus"]]["screen"] == "secret"


def test_guard_cancelled_drops_the_target(session):
    state = session.op("navigate", {"screen": "secret"})
    login = state["focus"]
    state = session.op("finish", {"node": login, "result": {"status": "cancelled"}})
    assert state["pending"] is None and state["flags"] == [] and state["focus"] == "n1"


def test_dismissing_the_guard_flow_drops_the_target(session):
    session.op("navigate", {"screen": "secret"})
    before = session.get()["lastEvent"]
    state = session.op("dismiss")
    assert state["pending"] is None
    events = session.events(before)["events"]
    assert [event["type"] for event in events] == ["removed", "finished", "pendingChanged"], events
    assert events[1]["result"] == {"status": "cancelled", "cause": "dismiss"} and events[2]["pending"] is None


def test_a_guard_holds_on_push_present_and_set_root(session):
    # push: the flow shows, the push waits, and resumes as a push
    state = session.op("push", {"screen": "secret"})
    login = state["focus"]
    assert nodes(state)[login]["screen"] == "login" and state["pending"]["operation"] == "push"
    # a second guarded target replaces the pending one: no second flow
    state = session.op("navigate", {"screen": "secret"})
    assert state["focus"] == login and [node["screen"] for node in nodes(state).values()].count("login") == 1
    assert state["pending"]["operation"] == "navigate" and state["pending"]["flow"] == login
    # set-root: the entries before the guarded one become the stack; the old flow, presented
    # from the replaced root, goes with it (no result: its parent leaves too) and the set-root
    # waits behind a new one
    before = session.get()["lastEvent"]
    state = session.op("set-root", {"navigator": "v0", "stack": [{"screen": "profile", "params": {"userId": "1"}}, {"screen": "secret"}]})
    assert [nodes(state)[id]["screen"] for id in navigator(state, "v0")["stack"]] == ["profile"]
    assert state["pending"]["operation"] == "setRoot" and state["pending"]["navigator"] == "v0"
    assert state["pending"]["replacesStack"] is False and state["pending"]["flow"] != login
    finished = [event for event in session.events(before)["events"] if event["type"] == "finished"]
    assert finished == []
    login = state["pending"]["flow"]
    state = session.op("finish", {"node": login, "result": {"status": "success"}})
    assert [nodes(state)[id]["screen"] for id in navigator(state, "v0")["stack"]] == ["profile", "secret"]
    assert state["pending"] is None and state["flags"] == ["signedIn"]


def test_a_guarded_present_waits_for_its_flow(session):
    state = session.op("present", {"screen": "secret", "style": "pageSheet"})
    assert state["pending"]["operation"] == "present"
    assert state["pending"]["steps"] == [{"screen": "secret", "params": {}, "presentation": "present", "style": "pageSheet"}]


def test_flags(session):
    state = session.op("flags", {"set": ["signedIn", "beta"]})
    assert state["flags"] == ["beta", "signedIn"]
    state = session.op("flags", {"clear": ["beta"]})
    assert state["flags"] == ["signedIn"]
    session.op("flags", {"set": "x"}, expect=400)
    session.op("flags", {"set": [1]}, expect=400)
    session.op("flags", {"set": [""]}, expect=422)


def test_demo_guard_before_a_deep_link(tabs_server):
    session = tabs_server.create_session()
    state = session.op("deep-link", {"url": "/settings"})
    assert state["tabs"]["selected"] == "account"
    login = state["focus"]
    assert nodes(state)[login]["presentation"] == {"kind": "present", "style": "formSheet", "level": "window"}
    state = session.op("finish", {"node": login, "result": {"status": "success"}})
    assert nodes(state)[state["focus"]]["screen"] == "settings"
    assert session.call("GET", "/link")[2] == {"url": "/settings"}


# --- app description validation at start -----------------------------------------------------

def start_with(tmp_path, app):
    path = tmp_path / "app.json"
    path.write_text(json.dumps(app))
    result = subprocess.run([str(BINARY), "--port", "0", "--app", str(path)], capture_output=True, text=True, timeout=20)
    return result.returncode, result.stderr


def test_invalid_app_descriptions_are_refused_naming_file_and_key(tmp_path):
    base = {"root": {"screen": "a"}, "screens": {"a": {}, "b": {"params": ["id"]}}}
    cases = [
        ({**base, "routes": [{"path": "/x", "steps": [{"screen": "zzz"}]}]}, "routes[0].steps[0].screen"),
        ({**base, "routes": [{"path": "/x/:id", "steps": []}, {"path": "/x/:other", "steps": []}]}, "routes[1].path"),
        ({**base, "routes": [{"path": "/x", "steps": [{"screen": "b", "params": {"id": ":id"}}]}]}, "routes[0].steps[0].params.id"),
        ({**base, "root": {"tabs": [{"id": "t", "screen": "nope"}]}}, "root.tabs[0].screen"),
        ({**base, "routes": [{"path": "/x", "tab": "t", "steps": []}]}, "routes[0].tab"),
        ({**base, "screens": {"a": {"requires": "f"}}}, "screens.a.otherwise"),
    ]
    for app, key in cases:
        code, stderr = start_with(tmp_path, app)
        assert code != 0 and str(tmp_path / "app.json") in stderr and key in stderr, (key, stderr)


def test_unknown_keys_in_the_app_description_are_refused_naming_path_and_nearest_key(tmp_path):
    app = {"root": {"screen": "a"}, "screens": {"a": {}, "b": {"presentaton": "present"}}}
    code, stderr = start_with(tmp_path, app)
    assert code != 0 and str(tmp_path / "app.json") in stderr, stderr
    assert "screens.b.presentaton: unknown field; did you mean 'presentation'?" in stderr, stderr


def test_set_root_keeps_nodes_already_on_the_stack(session):
    session.op("push", {"screen": "profile", "params": {"userId": "1"}})            # n2
    session.op("push", {"screen": "followers", "params": {"userId": "1"}})          # n3
    before = session.get()["lastEvent"]
    state = session.op("set-root", {"stack": [{"node": "n3"}, {"screen": "settings"}, {"node": "n2"}]})
    assert navigator(state, "v0")["stack"] == ["n3", "n4", "n2"]
    assert nodes(state)["n3"]["params"] == {"userId": "1"} and nodes(state)["n3"]["presentation"] == {"kind": "root"}
    events = session.events(before)["events"]
    assert [(event["type"], event.get("node")) for event in events] == [
        ("removed", "n1"), ("added", "n4"), ("stackChanged", None)], events
    assert events[-1]["navigator"] == "v0" and events[-1]["stack"] == ["n3", "n4", "n2"] and events[-1]["final"]
    session.op("set-root", {"stack": [{"node": "n2", "screen": "settings"}]}, expect=400)
    session.op("set-root", {"stack": [{"node": "n9"}]}, expect=404)
    session.op("set-root", {"stack": [{"node": "n2"}, {"node": "n2"}]}, expect=422)


# --- tabs that adapt to a sidebar ---------------------------------------------------------------

def test_tabs_that_adapt_show_as_a_sidebar_at_regular_width_with_the_same_tree_and_stacks(tmp_path):
    """`sidebar` on a tabs root: the state's tabs.form is `sidebar` while the device reports a
    regular size class and `tabBar` at compact; the size class alone changes it, in its own
    block, and nothing else moves. GET /v1/app names it; a root without tabs may not."""
    app = {"name": "bank", "root": {"sidebar": True, "tabs": [{"id": "accounts", "screen": "accounts"}, {"id": "cards", "screen": "cards"}]},
           "screens": {"accounts": {}, "cards": {}, "account": {"params": ["id"]}}}
    path = tmp_path / "bank.json"
    path.write_text(json.dumps(app))
    server = RunningServer("--app", str(path), "--rate-limit", "0")
    try:
        session = server.create_session()
        assert session.get()["tabs"]["form"] == "sidebar"
        session.op("push", {"screen": "account", "params": {"id": "1"}})
        session.op("select-tab", {"tab": "cards"})
        before = session.get()
        answer, block = session.block("POST", "/size-class", {"horizontal": "compact"})
        assert [event["type"] for event in block] == ["sizeClassChanged"]
        assert answer["tabs"] == {**before["tabs"], "form": "tabBar"}
        assert (answer["root"], answer["navigators"]) == (before["root"], before["navigators"])
        assert session.op("size-class", {"horizontal": "regular"})["tabs"]["form"] == "sidebar"
        assert server.request("GET", "/v1/app")[2]["root"]["sidebar"] is True
    finally:
        assert server.stop() == 0, "".join(server.log)
    path.write_text(json.dumps({**app, "root": {"screen": "accounts", "sidebar": True}}))
    result = subprocess.run([str(BINARY), "--port", "0", "--app", str(path)], capture_output=True, text=True, timeout=20)
    assert result.returncode != 0
    assert "root.sidebar: 'sidebar' is the form of a tab bar at regular width: give it with 'tabs'" in result.stderr, result.stderr
