"""Only what a device can show, over real HTTP on tests/live/apps/tabs.json: presentation levels,
presents from a hidden tab (409 not_visible) or under a window cover (409 covered), select-tab
with dismiss, interactive dismiss and pop, a result from every flow that leaves (held on the
parent until taken), titles, and each node's UI state (limits, no-op, kept by reconcile, shown by
versions, across a restart on SQLite and on a second instance on PostgreSQL)."""
import pytest

from conftest import RunningServer, APPS
from postgres import PostgresCluster
from test_navigation import nodes, navigator

TABS = APPS / "tabs.json"


def unchanged(session, before, name, body, code):
    """The operation is 409 with `code` and changes nothing."""
    answer = session.op(name, body, expect=409)
    assert answer["error"]["code"] == code, answer
    after = session.get()
    assert (after["version"], after["lastEvent"]) == (before["version"], before["lastEvent"])
    return answer["error"]["message"]


def test_presented_nodes_carry_their_level_and_every_node_its_title(tabs_server):
    session = tabs_server.create_session()
    state, block = session.block("POST", "/present", {"screen": "photo", "params": {"photoId": "1"}, "style": "overCurrentContext"})
    assert nodes(state)["n3"]["presentation"] == {"kind": "present", "style": "overCurrentContext", "level": "context"}
    assert block[0]["presentation"]["level"] == "context" and block[0]["title"] == "Photo"
    assert nodes(state)["n1"]["title"] == "Home" and "title" not in nodes(state)["n0"]
    state = session.op("present", {"screen": "editProfile"})
    assert nodes(state)["n4"]["presentation"] == {"kind": "present", "style": "pageSheet", "level": "window"}


def test_a_hidden_tab_cannot_present_and_a_window_cover_blocks_the_tab_bar(tabs_server):
    session = tabs_server.create_session()
    before = session.get()
    message = unchanged(session, before, "present", {"screen": "photo", "params": {"photoId": "1"}, "from": "n2"}, "not_visible")
    assert "select-tab 'account'" in message
    unchanged(session, before, "navigate", {"screen": "editProfile", "from": "n2"}, "not_visible")
    session.op("present", {"screen": "editProfile"})                               # n3, window level
    before = session.get()
    message = unchanged(session, before, "select-tab", {"tab": "account"}, "covered")
    assert "'n3'" in message and '"dismiss": true' in message
    # The navigator that presents keeps today's code; pushes under the cover are fine.
    assert session.op("present", {"screen": "login", "from": "n1"}, expect=409)["error"]["code"] == "conflict"
    session.op("push", {"screen": "profile", "params": {"userId": "1"}, "from": "n1"})
    # dismiss: the cover goes first, in the same block, its flow cancelled for its parent.
    state, block = session.block("POST", "/select-tab", {"tab": "account", "dismiss": True})
    assert [(event["type"], event.get("node"), event.get("reason") or event.get("result") or event.get("tab")) for event in block] == [
        ("removed", "n3", "dismiss"), ("finished", "n3", {"status": "cancelled", "cause": "dismiss"}), ("tabSelected", None, "account")]
    assert nodes(state)["n1"]["results"] == {"editProfile": {"status": "cancelled", "version": state["version"]}}


def test_interactive_dismiss_and_pop_apply_to_what_is_on_top(tabs_server):
    session = tabs_server.create_session()
    session.op("present", {"screen": "onboarding"})                                 # n3 on v1, embedded
    session.op("push", {"screen": "onboardingStep", "params": {"step": 1}})          # n4
    session.op("present", {"screen": "photo", "params": {"photoId": "1"}})           # n5 on v2, fullScreen
    before = session.get()
    assert session.op("dismiss", {"node": "n3", "interactive": True}, expect=409)["error"]["code"] == "conflict"
    assert session.op("pop", {"navigator": "v1", "interactive": True}, expect=409)["error"]["code"] == "conflict"
    # A full-screen cover cannot be swiped away: only the app dismisses it.
    message = session.op("dismiss", {"node": "n5", "interactive": True}, expect=409)["error"]["message"]
    assert "fullScreen" in message and session.get()["version"] == before["version"]
    session.op("dismiss", {"node": "n5"})
    session.op("present", {"screen": "editProfile"})                                 # n6, a sheet
    state, block = session.block("POST", "/dismiss", {"node": "n6", "interactive": True})
    assert block[-1]["type"] == "finished" and block[-1]["result"] == {"status": "cancelled", "cause": "dismiss", "interactive": True}
    assert nodes(state)["n4"]["results"]["editProfile"]["status"] == "cancelled"
    # A back swipe pops one screen: popping two with it is refused.
    session.op("push", {"screen": "onboardingStep", "params": {"step": 2}})           # n6
    assert session.op("pop", {"to": "n3", "interactive": True}, expect=409)["error"]["code"] == "conflict"
    state, block = session.block("POST", "/pop", {"interactive": True})
    assert [event["type"] for event in block] == ["removed"] and state["focus"] == "n4"
    session.op("dismiss", {"interactive": "yes"}, expect=400)


def test_results_are_held_until_taken_and_seen_by_a_client_that_joins_later(tabs_server):
    session = tabs_server.create_session()
    session.op("present", {"screen": "photo", "params": {"photoId": "1"}})
    session.op("finish", {"node": "n3", "result": {"status": "success", "value": {"liked": True}}})
    version = session.state["version"]
    late = session.other_client().get()
    assert nodes(late)["n1"]["results"] == {"photo": {"status": "success", "value": {"liked": True}, "version": version}}
    # Latest wins per screen.
    session.op("present", {"screen": "photo", "params": {"photoId": "2"}})
    state = session.op("dismiss")
    assert nodes(state)["n1"]["results"]["photo"] == {"status": "cancelled", "version": state["version"]}
    # Taking it: resultConsumed; a second time is 404 naming what is held.
    state, block = session.block("DELETE", "/nodes/n1/results/photo")
    assert [(event["type"], event["node"], event["screen"]) for event in block] == [("resultConsumed", "n1", "photo")]
    assert "results" not in nodes(state)["n1"]
    status, _, answer = session.call("DELETE", "/nodes/n1/results/photo")
    assert status == 404 and "holds none" in answer["error"]["message"]
    assert session.call("DELETE", "/nodes/n99/results/photo")[0] == 404
    assert session.call("POST", "/nodes/n1/results/photo", {})[0] == 405


def test_taking_a_result_with_a_key_used_for_another_request_is_the_contracts_422(tabs_server):
    session = tabs_server.create_session()
    session.op("present", {"screen": "photo", "params": {"photoId": "1"}})
    session.op("finish", {"node": "n3", "result": {"status": "success"}})
    key = {"Idempotency-Key": "take-once"}
    assert session.call("DELETE", "/nodes/n1/results/photo", headers=key)[0] == 200
    version = session.get()["version"]
    status, _, answer = session.call("DELETE", "/nodes/n2/results/photo", headers=key)
    assert status == 422 and "already used for a different request" in answer["error"]["message"], answer
    assert session.get()["version"] == version


def test_a_result_value_over_the_param_limit_is_422(tabs_server):
    session = tabs_server.create_session()
    session.op("present", {"screen": "photo", "params": {"photoId": "1"}})
    before = session.get()
    answer = session.op("finish", {"node": "n3", "result": {"status": "success", "value": "x" * 3000}}, expect=422)
    assert "--max-param-bytes" in answer["error"]["message"] and session.get()["version"] == before["version"]


def test_ui_state_round_trips_with_limits_and_no_ops(tabs_server):
    session = tabs_server.create_session()
    ui = {"scrollAnchor": "msg-42", "selection": ["msg-42"], "draft": "See you"}
    state, block = session.block("PUT", "/nodes/n1/ui", ui)
    assert nodes(state)["n1"]["ui"] == ui and [(event["type"], event["node"], event["ui"]) for event in block] == [("uiChanged", "n1", ui)]
    status, _, again = session.call("PUT", "/nodes/n1/ui", ui)
    assert status == 200 and again["version"] == state["version"] and session.events(state["lastEvent"])["events"] == []
    for body, expected in (([1], 400), ("x", 400), ({"big": "x" * 5000}, 422)):
        status, _, answer = session.call("PUT", "/nodes/n1/ui", body)
        assert status == expected, (body, answer)
    assert session.call("PUT", "/nodes/n0/ui", {"a": 1})[0] == 409
    assert session.call("PUT", "/nodes/n77/ui", {"a": 1})[0] == 404
    assert session.get()["version"] == state["version"]
    # An If-Match from before a UI change still matches: scrolling never fails a tap.
    stale = state["version"]
    session.op("push", {"screen": "profile", "params": {"userId": "1"}})
    tapped = session.get()["version"]
    session.call("PUT", "/nodes/n3/ui", {"scrollAnchor": "a"})
    session.op("push", {"screen": "followers", "params": {"userId": "1"}}, headers={"If-Match": f'"{tapped}"'})
    status, _, answer = session.call("POST", "/pop", {}, {"If-Match": f'"{stale}"'})
    assert status == 412, answer
    # {} clears it.
    state = session.call("PUT", "/nodes/n1/ui", {})[2]
    assert "ui" not in nodes(state)["n1"]


def test_ui_state_is_kept_by_a_link_that_keeps_the_node_and_shown_by_versions(tabs_server):
    session = tabs_server.create_session()
    state = session.op("deep-link", {"url": "/users/1"})
    profile = state["focus"]
    session.call("PUT", f"/nodes/{profile}/ui", {"scrollAnchor": "post-3"})
    with_ui = session.get()["version"]
    state = session.op("deep-link", {"url": "/users/1/followers"})
    assert nodes(state)[profile]["ui"] == {"scrollAnchor": "post-3"}
    session.call("PUT", f"/nodes/{profile}/ui", {"scrollAnchor": "post-9"})
    status, _, then = session.call("GET", f"/versions/{with_ui}")
    assert status == 200 and nodes(then)[profile]["ui"] == {"scrollAnchor": "post-3"}
    assert nodes(session.get())[profile]["ui"] == {"scrollAnchor": "post-9"}


def test_ui_state_and_results_survive_a_restart_on_sqlite(tmp_path):
    database = tmp_path / "sessions.sqlite"
    first = RunningServer("--app", str(TABS), "--store", f"sqlite:{database}", "--rate-limit", "0")
    try:
        session = first.create_session()
        session.call("PUT", "/nodes/n1/ui", {"selection": ["a", "b"]})
        session.op("present", {"screen": "editProfile"})
        session.op("dismiss", {"interactive": True})
        before = session.get()
    finally:
        assert first.stop() == 0
    second = RunningServer("--app", str(TABS), "--store", f"sqlite:{database}", "--rate-limit", "0")
    try:
        after = session.on(second).get()
        assert after == before
        assert nodes(after)["n1"]["ui"] == {"selection": ["a", "b"]} and nodes(after)["n1"]["results"]["editProfile"]["status"] == "cancelled"
    finally:
        assert second.stop() == 0


def test_ui_state_and_results_are_seen_by_a_second_instance_on_postgres():
    cluster = PostgresCluster.create()
    servers = []
    try:
        servers = [RunningServer("--app", str(TABS), "--store", cluster.url(), "--rate-limit", "0") for _ in range(2)]
        session = servers[0].create_session()
        session.call("PUT", "/nodes/n1/ui", {"draft": "hello"})
        session.op("present", {"screen": "photo", "params": {"photoId": "1"}})
        session.op("dismiss")
        state = session.on(servers[1]).get()
        assert nodes(state)["n1"]["ui"] == {"draft": "hello"} and "photo" in nodes(state)["n1"]["results"]
        session.on(servers[1]).block("DELETE", "/nodes/n1/results/photo")
        assert "results" not in nodes(session.get())["n1"]
    finally:
        for server in servers:
            server.stop()
        cluster.cleanup()


@pytest.mark.parametrize("body", [{"tab": "home", "dismiss": "yes"}, {"tab": "home", "dismiss": 1}])
def test_select_tab_dismiss_must_be_a_boolean(tabs_server, body):
    session = tabs_server.create_session()
    session.op("select-tab", body, expect=400)


SHEET = {"detents": ["medium", "large", {"id": "peek", "height": 120}], "selected": "medium", "grabber": True, "undimmedUpTo": "medium"}


def test_sheet_detents_round_trip_and_the_users_detent_change(tabs_server):
    session = tabs_server.create_session()
    state, block = session.block("POST", "/present", {"screen": "editProfile", "sheet": SHEET})
    assert nodes(state)["n3"]["sheet"] == SHEET and block[0]["sheet"] == SHEET
    tapped = state["version"]
    state, block = session.block("POST", "/nodes/n3/presentation", {"selected": "peek"})
    assert [(event["type"], event["node"], event["selected"]) for event in block] == [("presentationChanged", "n3", "peek")]
    assert nodes(state)["n3"]["sheet"]["selected"] == "peek"
    status, _, same = session.call("POST", "/nodes/n3/presentation", {"selected": "peek"})
    assert status == 200 and same["version"] == state["version"]
    # A detent change never fails a tap made before it.
    session.op("push", {"screen": "profile", "params": {"userId": "1"}}, headers={"If-Match": f'"{tapped}"'})
    before = session.get()
    for body, expected in (({"selected": "tall"}, 422), ({"selected": 1}, 400), ({}, 400), ({"selected": "large", "x": 1}, 400)):
        assert session.call("POST", "/nodes/n3/presentation", body)[0] == expected, body
    assert session.call("POST", "/nodes/n1/presentation", {"selected": "large"})[0] == 409
    assert session.call("POST", "/nodes/n99/presentation", {"selected": "large"})[0] == 404
    assert session.get()["version"] == before["version"]


def test_a_popover_needs_an_anchor_and_settings_must_fit_the_style(tabs_server):
    session = tabs_server.create_session()
    before = session.get()
    for body, expected in (
            ({"screen": "editProfile", "style": "popover"}, 422),
            ({"screen": "editProfile", "style": "fullScreen", "sheet": SHEET}, 422),
            ({"screen": "editProfile", "anchor": {"item": "a"}}, 422),
            ({"screen": "editProfile", "sheet": {"detents": []}}, 422),
            ({"screen": "editProfile", "sheet": {"detents": ["medium"], "selected": "large"}}, 422),
            ({"screen": "editProfile", "sheet": {"detents": ["tall"]}}, 400),
            ({"screen": "editProfile", "sheet": "medium"}, 400),
            ({"screen": "editProfile", "style": "popover", "anchor": {"item": "a", "rect": [0, 0, 1, 1]}}, 400),
            ({"screen": "editProfile", "style": "popover", "anchor": {"element": "bar", "rect": [0, 0, 1]}}, 400),
            ({"screen": "editProfile", "dismissible": "no"}, 400)):
        status, _, answer = session.call("POST", "/present", body)
        assert status == expected, (body, answer)
    status, _, answer = session.call("POST", "/navigate", {"screen": "profile", "params": {"userId": "1"}, "sheet": SHEET})
    assert status == 422 and "pushed" in answer["error"]["message"]
    assert session.get()["version"] == before["version"]
    anchor = {"element": "toolbar", "rect": [10, 20, 44, 44.5]}
    # editProfile's style is pageSheet: an anchor needs style popover.
    session.op("navigate", {"screen": "editProfile", "anchor": anchor}, expect=422)
    state = session.op("present", {"screen": "editProfile", "style": "popover", "anchor": anchor})
    assert nodes(state)["n3"]["anchor"] == anchor and nodes(state)["n3"]["presentation"]["style"] == "popover"


def test_an_undismissible_sheet_refuses_only_the_users_swipe(tabs_server):
    session = tabs_server.create_session()
    state = session.op("navigate", {"screen": "editProfile", "dismissible": False})
    assert nodes(state)["n3"]["dismissible"] is False
    before = session.get()
    answer = session.op("dismiss", {"node": "n3", "interactive": True}, expect=409)
    assert answer["error"]["code"] == "not_dismissible" and session.get()["version"] == before["version"]
    state, block = session.block("POST", "/dismiss", {"node": "n3"})
    assert block[-1]["result"] == {"status": "cancelled", "cause": "dismiss"}


MAIL = APPS / "mail.json"


@pytest.fixture(scope="module")
def mail():
    running = RunningServer("--app", str(MAIL), "--rate-limit", "0")
    yield running
    assert running.stop() == 0, "".join(running.log)


def columns(state):
    """Each column's screens, by navigator id."""
    by_id = nodes(state)
    return {column: [by_id[node]["screen"] for node in navigator(state, column)["stack"]] for column in ("primary", "supplementary", "detail")}


def test_three_columns_follow_show_detail_and_empty_on_pop(mail):
    session = mail.create_session()
    state = session.state
    assert (state["layout"], state["sizeClass"], state["collapsed"], state["compactStack"]) == ("split", "regular", False, ["n1"])
    assert columns(state) == {"primary": ["accounts"], "supplementary": [], "detail": []}
    session.op("navigate", {"screen": "mailbox", "params": {"box": "in"}, "from": "n1"})                   # n2
    session.op("navigate", {"screen": "message", "params": {"id": "1"}, "from": "n2"})                     # n3
    state = session.op("navigate", {"screen": "thread", "params": {"id": "1"}, "from": "n3"})              # n4, pushed
    assert columns(state) == {"primary": ["accounts"], "supplementary": ["mailbox"], "detail": ["message", "thread"]}
    assert nodes(state)["n2"]["presentation"] == {"kind": "supplementary"} and nodes(state)["n3"]["presentation"] == {"kind": "detail"}
    state, block = session.block("POST", "/navigate", {"screen": "mailbox", "params": {"box": "sent"}, "from": "n1"})
    assert {(event["node"], event["reason"]) for event in block if event["type"] == "removed"} == {
        ("n4", "setRoot"), ("n3", "setRoot"), ("n2", "setRoot")}
    assert columns(state) == {"primary": ["accounts"], "supplementary": ["mailbox"], "detail": []} and state["focus"] == "n5"
    # Back to the sidebar: popping a column's root empties it.
    state, block = session.block("POST", "/pop", {"navigator": "supplementary"})
    assert [(event["type"], event["reason"]) for event in block] == [("removed", "pop")]
    assert columns(state)["supplementary"] == [] and state["focus"] == "n1"
    assert session.op("pop", {"navigator": "primary"}, expect=409)["error"]["code"] == "conflict"


def test_the_size_class_collapses_the_columns_into_one_stack_both_ways(mail):
    session = mail.create_session(sizeClass="compact")
    assert (session.state["sizeClass"], session.state["collapsed"]) == ("compact", True)
    session.op("navigate", {"screen": "mailbox", "params": {"box": "in"}, "from": "n1"})
    state = session.op("navigate", {"screen": "message", "params": {"id": "1"}, "from": "n2"})
    assert state["compactStack"] == ["n1", "n2", "n3"] and state["focus"] == "n3"
    regular, block = session.block("POST", "/size-class", {"horizontal": "regular"})
    assert [(event["type"], event["horizontal"]) for event in block] == [("sizeClassChanged", "regular")]
    assert set(nodes(regular)) == set(nodes(state)) and regular["collapsed"] is False
    compact = session.op("size-class", {"horizontal": "compact"})
    assert set(nodes(compact)) == set(nodes(state)) and compact["compactStack"] == ["n1", "n2", "n3"]
    status, _, same = session.call("POST", "/size-class", {"horizontal": "compact"})
    assert status == 200 and same["version"] == compact["version"]
    # Compact: only the column on top is shown; Back walks the stack across columns.
    assert session.op("present", {"screen": "compose", "from": "n1"}, expect=409)["error"]["code"] == "not_visible"
    state = session.op("pop", {"interactive": True})
    assert state["compactStack"] == ["n1", "n2"] and state["focus"] == "n2"
    state = session.op("pop", {"interactive": True})
    assert state["compactStack"] == ["n1"] and state["focus"] == "n1"
    for body, expected in (({"horizontal": "tiny"}, 422), ({"horizontal": 1}, 400), ({}, 400)):
        assert session.call("POST", "/size-class", body)[0] == expected
    assert mail.request("POST", "/v1/sessions", {"sizeClass": "huge"})[0] == 422


def test_the_display_mode_shows_or_hides_columns_without_moving_a_node(mail, server):
    session = mail.create_session()
    assert session.state["displayMode"] == "automatic"
    session.op("navigate", {"screen": "mailbox", "params": {"box": "in"}, "from": "n1"})
    before = session.op("navigate", {"screen": "message", "params": {"id": "1"}, "from": "n2"})
    state, block = session.block("POST", "/display-mode", {"mode": "secondaryOnly"})
    assert [(event["type"], event["mode"]) for event in block] == [("displayModeChanged", "secondaryOnly")]
    assert state["displayMode"] == "secondaryOnly" and state["version"] == before["version"] + 1
    assert columns(state) == columns(before) and state["focus"] == before["focus"] and state["navigators"] == before["navigators"]
    status, _, same = session.call("POST", "/display-mode", {"mode": "secondaryOnly"})
    assert status == 200 and same["version"] == state["version"]
    # Three columns take every mode; a compact split view keeps the mode for when it is regular again.
    for mode in ("twoOverSecondary", "twoDisplaceSecondary", "oneOverSecondary"):
        assert session.op("display-mode", {"mode": mode})["displayMode"] == mode
    compact = session.op("size-class", {"horizontal": "compact"})
    assert compact["displayMode"] == "oneOverSecondary" and compact["compactStack"] == ["n1", "n2", "n3"]
    assert session.op("size-class", {"horizontal": "regular"})["displayMode"] == "oneOverSecondary"
    # A past version shows the mode of then, and a restore brings it back.
    status, _, then = session.call("GET", f"/versions/{state['version']}")
    assert status == 200 and then["displayMode"] == "secondaryOnly"
    status, _, restored = session.call("POST", "/restore", {"version": state["version"]})
    assert status == 200 and restored["displayMode"] == "secondaryOnly" and columns(restored) == columns(before)
    # Refusals change nothing.
    current = session.get()
    for body, expected in (({"mode": "sideways"}, 422), ({"mode": 1}, 400), ({}, 400), ({"mode": "automatic", "columns": 2}, 400)):
        assert session.call("POST", "/display-mode", body)[0] == expected, body
    assert session.get()["version"] == current["version"]
    # Two columns beside detail need three columns; a session without a split view has no mode.
    legacy = server.create_session(layout="split")
    assert legacy.state["displayMode"] == "automatic"
    answer = legacy.op("display-mode", {"mode": "twoBesideSecondary"}, expect=422)
    assert "two columns" in answer["error"]["message"]
    assert legacy.op("display-mode", {"mode": "oneBesideSecondary"})["displayMode"] == "oneBesideSecondary"
    stack = server.create_session()
    assert "displayMode" not in stack.state
    assert "no split view" in stack.op("display-mode", {"mode": "secondaryOnly"}, expect=422)["error"]["message"]
    assert stack.get()["version"] == stack.state["version"]


def test_a_column_change_under_a_window_cover_is_refused(mail):
    session = mail.create_session()
    session.op("navigate", {"screen": "mailbox", "params": {"box": "in"}, "from": "n1"})
    state = session.op("navigate", {"screen": "compose", "from": "n2"})
    assert nodes(state)["n3"]["sheet"] == {"detents": ["medium", "large"], "grabber": True} and nodes(state)["n3"]["dismissible"] is False
    before = session.get()
    assert session.op("navigate", {"screen": "mailbox", "params": {"box": "sent"}, "from": "n1"}, expect=409)["error"]["code"] == "covered"
    assert session.op("dismiss", {"interactive": True}, expect=409)["error"]["code"] == "not_dismissible"
    assert session.get()["version"] == before["version"]


def test_the_legacy_split_layout_empties_its_detail_and_collapses(server):
    session = server.create_session(layout="split")
    state = session.op("navigate", {"screen": "profile", "params": {"userId": "1"}})
    compact = session.op("size-class", {"horizontal": "compact"})
    assert set(nodes(compact)) == set(nodes(state)) and compact["compactStack"] == ["n1", "n2"] and compact["focus"] == "n2"
    regular = session.op("size-class", {"horizontal": "regular"})
    assert set(nodes(regular)) == set(nodes(state)) and regular["collapsed"] is False
    state = session.op("pop", {"navigator": "detail"})
    assert navigator(state, "detail")["stack"] == [] and state["focus"] == "n1" and state["compactStack"] == ["n1"]


def test_a_screen_that_says_it_cannot_be_swiped_back_refuses_only_the_back_swipe(mail):
    session = mail.create_session()
    session.op("navigate", {"screen": "mailbox", "params": {"box": "in"}, "from": "n1"})
    session.op("navigate", {"screen": "message", "params": {"id": "1"}, "from": "n2"})
    session.op("push", {"screen": "review"})
    before = session.get()
    assert session.op("pop", {"interactive": True}, expect=409)["error"]["code"] == "not_dismissible"
    assert session.get()["version"] == before["version"]
    state = session.op("pop")
    assert [nodes(state)[node]["screen"] for node in navigator(state, "detail")["stack"]] == ["message"]


def test_a_flow_screen_popped_and_a_presented_root_replaced_send_finished(mail, tabs_server):
    # pop: `thread` declares `"flow": true`, so its parent learns that it was cancelled (and, as
    # it says `"result": true`, holds the result).
    session = mail.create_session()
    session.op("navigate", {"screen": "mailbox", "params": {"box": "in"}, "from": "n1"})                   # n2
    session.op("navigate", {"screen": "message", "params": {"id": "1"}, "from": "n2"})                     # n3
    session.op("navigate", {"screen": "thread", "params": {"id": "1"}, "from": "n3"})                      # n4
    state, block = session.block("POST", "/pop", {})
    assert [(event["type"], event["node"]) for event in block] == [("removed", "n4"), ("finished", "n4")]
    assert block[-1]["result"] == {"status": "cancelled", "cause": "pop"}
    assert nodes(state)["n3"]["results"]["thread"]["status"] == "cancelled"
    # setRoot: the presented navigator's root is replaced; its parent stays.
    session = tabs_server.create_session()
    session.op("present", {"screen": "onboarding"})                                                        # n3 on v1
    state, block = session.block("POST", "/set-root", {"navigator": "v1", "screen": "onboardingStep", "params": {"step": 1}})
    finished = [event for event in block if event["type"] == "finished"]
    assert [(event["node"], event["parent"], event["result"]) for event in finished] == [
        ("n3", "n1", {"status": "cancelled", "cause": "setRoot"})]
    # onboarding says it returns no result: none held
    assert "results" not in nodes(state)["n1"]


def test_results_are_shown_by_versions_and_not_brought_back_by_restore(tabs_server):
    session = tabs_server.create_session()
    session.op("present", {"screen": "photo", "params": {"photoId": "1"}})
    session.op("dismiss")
    held = session.get()["version"]
    session.block("DELETE", "/nodes/n1/results/photo")
    status, _, then = session.call("GET", f"/versions/{held}")
    assert status == 200 and nodes(then)["n1"]["results"]["photo"]["status"] == "cancelled"
    restored = session.op("restore", {"version": held})
    assert "results" not in nodes(restored)["n1"], "a restore does not bring a taken result back"
