"""The session's change log over live HTTP: every mutation's block of events, no-ops that make
none, waking long polls, state waits and streams from a second client, and replaying the log."""
import json
import random
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import APPS, EventStream, RunningServer, check_block, split_blocks
from test_navigation import nodes

ENVELOPE = ("seq", "version", "at", "final", "focus")
# the order of event types inside one block
ORDER = ["removed", "finished", "flowChanged", "added", "paramsChanged", "tabSelected", "flagsChanged", "pendingChanged", "uiChanged",
         "resultConsumed", "listChanged"]


def titles(app):
    """The screens' titles of an app file, by screen."""
    return {name: screen["title"] for name, screen in json.loads((APPS / app).read_text())["screens"].items() if "title" in screen}


BASIC_TITLES = titles("basic.json")


def payload(event):
    """An event without its envelope (seq, version, at, final)."""
    return {key: value for key, value in event.items() if key not in ENVELOPE}


def added(node, screen, parent, navigator, presentation, params=None, screen_titles=BASIC_TITLES, **present):
    """An `added` event's payload: the presentation of a presented node gets its level, the node
    its screen's title (from the app file that `screen_titles` were read from)."""
    if presentation["kind"] == "present":
        presentation = {**presentation, "level": "context" if presentation["style"] in ("currentContext", "overCurrentContext") else "window"}
    title = {"title": screen_titles[screen]} if screen in screen_titles else {}
    return {"type": "added", "node": node, "screen": screen, **title, "params": params or {}, "parent": parent,
            "navigator": navigator, "presentation": presentation, **present}


def removed(node, screen, reason, navigator):
    return {"type": "removed", "node": node, "screen": screen, "reason": reason, "navigator": navigator}


def count_events(frames):
    return len([frame for frame in frames if "id" in frame])


# --- every mutation makes its events ----------------------------------------------------------

def test_push_appends_added_with_its_place(session):
    block = session.change("push", {"screen": "profile", "params": {"userId": "42"}})
    assert [payload(event) for event in block] == [added("n2", "profile", "n1", "v0", {"kind": "push"}, {"userId": "42"})]
    block = session.change("push", {"screen": "settings", "from": "n1"})          # from below the top: on top
    assert [payload(event) for event in block] == [added("n3", "settings", "n1", "v0", {"kind": "push"})]


def test_present_appends_added_with_the_presenting_navigator_and_embedding(session):
    block = session.change("present", {"screen": "onboarding"})
    assert [payload(event) for event in block] == [
        added("n2", "onboarding", "n1", "v1", {"kind": "present", "style": "formSheet"}, presentedBy="v0", embedded=True)]
    block = session.change("push", {"screen": "onboardingStep", "params": {"step": 1}})
    assert [payload(event) for event in block] == [added("n3", "onboardingStep", "n2", "v1", {"kind": "push"}, {"step": 1})]
    block = session.change("present", {"screen": "settings", "style": "pageSheet"})
    assert [payload(event) for event in block] == [
        added("n4", "settings", "n3", "v2", {"kind": "present", "style": "pageSheet"}, presentedBy="v1", embedded=False)]


def test_navigate_appends_what_the_app_description_made_of_it(session):
    block = session.change("navigate", {"screen": "photo", "params": {"photoId": "p"}})
    assert [payload(event) for event in block] == [
        added("n2", "photo", "n1", "v1", {"kind": "present", "style": "fullScreen"}, {"photoId": "p"}, presentedBy="v0", embedded=False)]
    session.change("dismiss")
    block = session.change("navigate", {"screen": "followers", "params": {"userId": "1"}})
    assert [payload(event) for event in block] == [added("n3", "followers", "n1", "v0", {"kind": "push"}, {"userId": "1"})]


def test_navigate_in_split_appends_the_detail(server):
    session = server.create_session(layout="split")
    block = session.change("navigate", {"screen": "profile", "params": {"userId": "1"}})
    assert [payload(event) for event in block] == [added("n2", "profile", "n1", "detail", {"kind": "detail"}, {"userId": "1"})]


def test_set_root_appends_the_removed_stack_then_the_new_one(session):
    session.op("push", {"screen": "settings"})
    block = session.change("set-root", {"screen": "profile", "params": {"userId": "1"}})
    assert [payload(event) for event in block] == [
        removed("n2", "settings", "setRoot", "v0"), removed("n1", "home", "setRoot", "v0"),
        added("n3", "profile", "n0", "v0", {"kind": "root"}, {"userId": "1"})]


def test_deep_link_appends_the_reset_then_the_route_in_order(session):
    session.op("push", {"screen": "settings"})
    # followers declares no `ref`: the query sets nothing
    block = session.change("deep-link", {"url": "/users/4/followers?ref=x"})
    assert [payload(event) for event in block] == [
        removed("n2", "settings", "deepLink", "v0"),
        added("n3", "profile", "n1", "v0", {"kind": "push"}, {"userId": "4"}),
        added("n4", "followers", "n3", "v0", {"kind": "push"}, {"userId": "4"})]


def test_deep_link_into_another_tab_appends_tab_selected_after_the_nodes(tabs_server):
    session = tabs_server.create_session()
    session.op("navigate", {"screen": "profile", "params": {"userId": "1"}})          # n3 on home
    block = session.change("select-tab", {"tab": "account"})
    assert [payload(event) for event in block] == [{"type": "tabSelected", "tab": "account"}]
    block = session.change("deep-link", {"url": "tabs://users/2"})
    assert [payload(event) for event in block] == [
        removed("n3", "profile", "deepLink", "tab:home"),
        added("n4", "profile", "n1", "tab:home", {"kind": "push"}, {"userId": "2"}, screen_titles=titles("tabs.json")),
        {"type": "tabSelected", "tab": "home"}]


def test_flags_append_the_whole_sorted_set(session):
    block = session.change("flags", {"set": ["signedIn", "beta"]})
    assert [payload(event) for event in block] == [{"type": "flagsChanged", "flags": ["beta", "signedIn"]}]
    block = session.change("flags", {"set": ["alpha"], "clear": ["beta"]})
    assert [payload(event) for event in block] == [{"type": "flagsChanged", "flags": ["alpha", "signedIn"]}]


def test_a_guard_flow_appends_pending_changed_and_its_end(session):
    block = session.change("navigate", {"screen": "secret"})
    assert [payload(event) for event in block] == [
        added("n2", "login", "n1", "v1", {"kind": "present", "style": "formSheet"}, presentedBy="v0", embedded=True),
        {"type": "pendingChanged", "pending": {"operation": "navigate", "steps": [{"screen": "secret", "params": {}}], "flow": "n2"}}]
    block = session.change("finish", {"node": "n2", "result": {"status": "success"}})
    assert [payload(event) for event in block] == [
        removed("n2", "login", "finish", "v1"),
        {"type": "finished", "node": "n2", "screen": "login", "parent": "n1", "result": {"status": "success"}, "held": False},
        added("n3", "secret", "n1", "v0", {"kind": "push"}),
        {"type": "flagsChanged", "flags": ["signedIn"]},
        {"type": "pendingChanged", "pending": None}]


def test_a_guard_flow_cancelled_or_dismissed_drops_the_pending_target(session):
    session.op("deep-link", {"url": "/secret/3"})                                      # n2 profile, n3 login
    block = session.change("finish", {"node": "n3", "result": {"status": "cancelled"}})
    assert [payload(event) for event in block] == [
        removed("n3", "login", "finish", "v1"),
        {"type": "finished", "node": "n3", "screen": "login", "parent": "n2", "result": {"status": "cancelled"}, "held": False},
        {"type": "pendingChanged", "pending": None}]
    session.op("navigate", {"screen": "secret"})                                        # n4 login
    block = session.change("dismiss")
    assert payload(block[0]) == removed("n4", "login", "dismiss", "v2")
    assert payload(block[-1]) == {"type": "pendingChanged", "pending": None}


def test_a_list_put_appends_list_changed_even_when_identical(session):
    sections = {"sections": [{"id": "a", "items": [{"id": "1", "kind": "row", "content": {"title": "x"}}]}]}
    answer, block = session.block("PUT", "/nodes/n1/list", sections)
    assert answer["version"] == 1
    assert [payload(event) for event in block] == [{"type": "listChanged", "node": "n1", "list": 1, "from": 0}]
    answer, block = session.block("PUT", "/nodes/n1/list", sections)                  # unchanged: still counts
    assert [payload(event) for event in block] == [{"type": "listChanged", "node": "n1", "list": 2, "from": 1}]
    status, _, page = session.call("GET", f"/nodes/n1/list?since={block[0]['from']}")
    assert status == 200 and page["version"] == 2 and page["diff"]["items"] == {"deleted": [], "inserted": [], "moved": [], "updated": []}
    session.op("push", {"screen": "settings"})
    _, block = session.block("PUT", "/nodes/n2/list", {"sections": []})
    assert [payload(event) for event in block] == [{"type": "listChanged", "node": "n2", "list": 1, "from": 0}]


def test_the_state_document_carries_last_event(session):
    assert session.state["lastEvent"] == 0 and session.get()["lastEvent"] == 0
    state = session.op("deep-link", {"url": "/users/1/followers"})
    assert state["lastEvent"] == 2 == session.events()["last"]


# --- no-ops and failures make no event ---------------------------------------------------------

def test_no_ops_answer_200_unchanged_without_an_event(tabs_server):
    session = tabs_server.create_session()
    session.op("flags", {"set": ["beta"]})
    before = session.get()
    status, headers, _ = session.call("GET")
    etag = headers["ETag"]
    for name, body in [("select-tab", {"tab": "home"}), ("flags", {"set": ["beta"]}), ("flags", {"clear": ["gamma"]}),
                       ("flags", {"set": ["beta"], "clear": ["gamma"]})]:
        status, headers, state = session.call("POST", "/" + name, body, headers={"If-Match": etag})
        assert status == 200 and state == before and headers["ETag"] == etag, (name, body, status, state)
    assert session.get() == before and session.events(0)["last"] == before["lastEvent"] == 1


def test_a_no_op_with_an_idempotency_key_answers_its_first_answer_again(session):
    session.op("flags", {"set": ["beta"]})
    first = session.op("flags", {"set": ["beta"]}, headers={"Idempotency-Key": "noop"})          # a no-op at version 2
    session.other_client().op("flags", {"clear": ["beta"]})                                    # version 3
    retry = session.op("flags", {"set": ["beta"]}, headers={"Idempotency-Key": "noop"})
    assert retry == first, "a retry of a no-op applied the request after all"
    assert session.get()["flags"] == [] and session.events()["last"] == 2


@pytest.mark.serial
def test_a_no_op_wakes_no_waiting_poll_or_state_wait(session):
    session.op("flags", {"set": ["beta"]})
    other = session.other_client()
    with ThreadPoolExecutor(max_workers=2) as pool:
        poll = pool.submit(session.call, "GET", "/events?after=1&wait=2")
        wait = pool.submit(session.call, "GET", "?wait=2", None, {"If-None-Match": '"2"'})
        time.sleep(0.5)
        other.op("flags", {"set": ["beta"]})
        started = time.monotonic()
        status, _, body = poll.result(timeout=10)
        assert status == 200 and body == {"events": [], "last": 1}
        assert wait.result(timeout=10)[0] == 304
        assert time.monotonic() - started > 1.0


def test_failed_mutations_append_nothing(session):
    session.op("push", {"screen": "settings"})
    before = session.get()
    failures = [("pop", {"navigator": "v9"}, 404), ("dismiss", {}, 409), ("push", {"screen": "nowhere"}, 422),
                ("push", {"screen": 7}, 400), ("deep-link", {"url": "/broken"}, 409), ("select-tab", {"tab": "x"}, 422),
                ("finish", {"node": "n1", "result": {"status": "success"}}, 409)]
    for name, body, expect in failures:
        session.op(name, body, expect=expect)
    status, _, _ = session.call("POST", "/push", {"screen": "settings"}, headers={"If-Match": '"1"'})
    assert status == 412
    status, _, _ = session.call("PUT", "/nodes/n1/list", {"sections": [{"id": "", "items": []}]})
    assert status == 422
    assert session.get() == before and session.events()["last"] == before["lastEvent"] == 1


def test_an_idempotent_retry_appends_nothing_more(session):
    first = session.change("push", {"screen": "settings"}, headers={"Idempotency-Key": "once"})
    state = session.op("push", {"screen": "settings"}, headers={"Idempotency-Key": "once"})
    assert state["version"] == 2 and state["lastEvent"] == 1 and session.events()["events"] == first


# --- a second client wakes long polls, state waits and streams ---------------------------------

@pytest.mark.serial
def test_a_second_clients_change_wakes_a_long_poll_and_a_stream_with_the_whole_block(session):
    session.op("push", {"screen": "settings"})
    other = session.other_client()
    stream = EventStream(session)
    try:
        assert stream.read_events(1)[0]["id"] == "1"
        with ThreadPoolExecutor(max_workers=1) as pool:
            poll = pool.submit(session.call, "GET", "/events?after=1&wait=8")
            time.sleep(0.5)
            assert not poll.done()
            started = time.monotonic()
            other.op("deep-link", {"url": "/users/9/followers"})                 # removed n2, added n3, added n4
            status, _, body = poll.result(timeout=10)
            assert time.monotonic() - started < 2
        assert status == 200 and body["last"] == 4
        check_block(body["events"], 3, 2)
        assert [(event["type"], event["node"]) for event in body["events"]] == [("removed", "n2"), ("added", "n3"), ("added", "n4")]
        frames = stream.read_events(4)
        assert time.monotonic() - started < 2
    finally:
        stream.close()
    assert [frame["id"] for frame in frames] == ["1", "2", "3", "4"]
    for frame in frames:
        assert frame["id"] == str(frame["data"]["seq"]) and frame["event"] == frame["data"]["type"]
    assert [frame["data"] for frame in frames[1:]] == body["events"] == session.events(1)["events"]


@pytest.mark.serial
def test_a_long_poll_after_beyond_the_newest_waits_for_an_event_newer_than_after(session):
    other = session.other_client()
    with ThreadPoolExecutor(max_workers=1) as pool:
        poll = pool.submit(session.call, "GET", "/events?after=3&wait=8")
        time.sleep(0.3)
        for _ in range(3):                                                        # seq 1, 2, 3: not newer than 3
            other.op("push", {"screen": "settings"})
        time.sleep(0.5)
        assert not poll.done(), poll.result()
        started = time.monotonic()
        other.op("push", {"screen": "settings"})                                  # seq 4
        status, _, body = poll.result(timeout=10)
        assert time.monotonic() - started < 2
    assert status == 200 and [event["seq"] for event in body["events"]] == [4] and body["last"] == 4
    started = time.monotonic()
    assert session.call("GET", "/events?after=100&wait=1")[2] == {"events": [], "last": 4}
    assert time.monotonic() - started > 0.9


@pytest.mark.serial
def test_get_wait_answers_when_another_client_changes_the_version(session):
    other = session.other_client()
    with ThreadPoolExecutor(max_workers=1) as pool:
        wait = pool.submit(session.call, "GET", "?wait=8", None, {"If-None-Match": '"1"'})
        time.sleep(0.5)
        assert not wait.done()
        started = time.monotonic()
        other.op("push", {"screen": "settings"})
        status, headers, state = wait.result(timeout=10)
        assert time.monotonic() - started < 2
    assert status == 200 and headers["ETag"] == '"2"' and state["version"] == 2 and state == session.get()


@pytest.mark.serial
def test_get_wait_answers_304_after_its_time(session):
    started = time.monotonic()
    status, headers, body = session.call("GET", "?wait=1", headers={"If-None-Match": '"1"'})
    assert status == 304 and body is None and headers["ETag"] == '"1"'
    assert 0.9 < time.monotonic() - started < 4


@pytest.mark.serial
def test_get_wait_answers_at_once_without_if_none_match_or_when_the_version_differs(session):
    session.op("push", {"screen": "settings"})
    started = time.monotonic()
    status, headers, state = session.call("GET", "?wait=30")
    assert status == 200 and state["version"] == 2 and headers["ETag"] == '"2"'
    status, _, state = session.call("GET", "?wait=60", headers={"If-None-Match": '"1"'})
    assert status == 200 and state["version"] == 2
    assert time.monotonic() - started < 1


def test_get_wait_over_60_or_malformed_is_400(session):
    for query in ("wait=61", "wait=-1", "wait=x", "wait="):
        status, _, body = session.call("GET", "?" + query, headers={"If-None-Match": '"1"'})
        assert status == 400 and body["error"]["code"] == "invalid_request", (query, body)
    status, _, body = session.call("GET", "?wait=61")
    assert status == 400 and "60" in body["error"]["message"]


def test_a_stream_resumed_at_the_newest_event_sends_only_what_follows(session):
    for _ in range(2):
        session.op("push", {"screen": "settings"})
    stream = EventStream(session, {"Last-Event-ID": "2"})
    try:
        assert not stream.wait(lambda frames: count_events(frames) > 0, timeout=0.5)
        session.other_client().op("pop", {"toRoot": True})                         # seq 3, 4
        frames = stream.read_events(2)
    finally:
        stream.close()
    assert [(frame["id"], frame["event"], frame["data"]["node"]) for frame in frames] == [("3", "removed", "n3"), ("4", "removed", "n2")]
    assert frames[-1]["data"]["final"] is True and "final" not in frames[0]["data"]


@pytest.mark.serial
def test_a_stream_resumed_beyond_the_newest_event_sends_only_newer_ones(session):
    # as a long poll with `after` beyond the newest: "resumes after it" skips what the client has
    for _ in range(2):
        session.op("push", {"screen": "settings"})
    stream = EventStream(session, {"Last-Event-ID": "5"})
    try:
        for _ in range(4):                                                        # seq 3 to 6
            session.other_client().op("push", {"screen": "settings"})
        stream.wait(lambda frames: count_events(frames) >= 4, timeout=1)
        frames = stream.events()
    finally:
        stream.close()
    assert [frame["id"] for frame in frames] == ["6"]


def test_a_deleted_session_ends_its_streams_with_ended(server):
    session = server.create_session()
    stream = EventStream(session)
    try:
        session.other_client().op("push", {"screen": "settings"})
        assert stream.read_events(1)[0]["event"] == "added"
        assert session.other_client().call("DELETE")[0] == 204
        assert stream.wait(lambda frames: False, timeout=5) is False and stream.ended, "the stream did not end"
    finally:
        stream.close()
    frames = [frame for frame in stream.frames if "event" in frame]
    assert [frame.get("event") for frame in frames] == ["added", "ended"]
    assert "id" not in frames[-1]


@pytest.mark.serial
def test_an_expired_session_ends_its_streams_with_ended():
    running = RunningServer("--app", str(APPS / "basic.json"), "--session-ttl", "2")
    try:
        session = running.create_session()
        stream = EventStream(session)
        try:
            started = time.monotonic()
            assert stream.wait(lambda frames: any(frame.get("event") == "ended" for frame in frames), timeout=20), stream.frames
            assert time.monotonic() - started > 1.5
            assert stream.wait(lambda frames: False, timeout=5) is False and stream.ended
        finally:
            stream.close()
        assert session.call("GET")[0] == 401
    finally:
        assert running.stop() == 0


# --- replaying the log gives the state ----------------------------------------------------------

class Replica:
    """What a client that follows the change log knows: nodes, flags, tab, pending and list versions."""

    def __init__(self, state):
        self.nodes = node_facts(state)
        self.flags = state["flags"]
        self.tab = state["tabs"]["selected"] if state["tabs"] else None
        self.pending = state["pending"]
        self.lists = list_versions(state)

    def copy(self):
        replica = Replica.__new__(Replica)
        # nodes are copied one by one: paramsChanged changes a node in place
        replica.nodes, replica.flags, replica.tab = {node: dict(facts) for node, facts in self.nodes.items()}, self.flags, self.tab
        replica.pending, replica.lists = self.pending, dict(self.lists)
        return replica

    def apply(self, block, before=None):
        """Applies one block; with the state `before` it, also checks that removals go top-most first."""
        ranks = [ORDER.index(event["type"]) for event in block]
        assert ranks == sorted(ranks), f"events out of order: {[event['type'] for event in block]}"
        if before is not None:
            gone = [event["node"] for event in block if event["type"] == "removed"]
            for index, node in enumerate(gone):
                assert not any(is_above(before, later, node) for later in gone[index + 1:]), (
                    f"removed {node} before a node shown above it: {gone}")
        for once in ("tabSelected", "flagsChanged", "pendingChanged"):
            assert [event["type"] for event in block].count(once) <= 1, block
        gone = {}
        for event in block:
            kind = event["type"]
            if kind == "added":
                assert event["node"] not in self.nodes, event
                assert event["parent"] in self.nodes or event["parent"] == "n0", event
                assert ("presentedBy" in event) == ("embedded" in event), event
                self.nodes[event["node"]] = {key: event[key] for key in ("screen", "params", "parent", "navigator", "presentation")}
            elif kind == "removed":
                node = self.nodes.pop(event["node"], None)
                assert node is not None, f"removed an unknown node: {event}"
                assert (node["screen"], node["navigator"]) == (event["screen"], event["navigator"]), (node, event)
                gone[event["node"]] = node
                self.lists.pop(event["node"], None)
            elif kind == "finished":
                assert event["node"] in gone and gone[event["node"]]["parent"] == event["parent"], event
                assert event["screen"] == gone[event["node"]]["screen"]
            elif kind == "flowChanged":
                assert self.nodes == {} and all(node["reason"] == "flowChanged" for node in gone_events(block)), block
                self.tab = None
            elif kind == "paramsChanged":
                assert event["node"] in self.nodes and event["params"] != self.nodes[event["node"]]["params"], event
                self.nodes[event["node"]]["params"] = event["params"]
            elif kind == "flagsChanged":
                assert event["flags"] == sorted(set(event["flags"])) and event["flags"] != self.flags, event
                self.flags = event["flags"]
            elif kind == "tabSelected":
                assert event["tab"] != self.tab, event
                self.tab = event["tab"]
            elif kind == "pendingChanged":
                self.pending = event["pending"]
            elif kind == "listChanged":
                # a node that came back by a restore numbers its first list after its earlier ones
                assert event["from"] == self.lists.get(event["node"], 0) and (event["list"] == event["from"] + 1 or event["from"] == 0), event
                self.lists[event["node"]] = event["list"]
            else:
                pytest.fail(f"unknown event type: {event}")

    def assert_matches(self, state):
        assert self.nodes == node_facts(state)
        assert self.flags == state["flags"] and self.pending == state["pending"]
        assert self.tab == (state["tabs"]["selected"] if state["tabs"] else None)
        assert self.lists == list_versions(state)


def gone_events(block):
    return [event for event in block if event["type"] == "removed"]


def is_above(state, upper, lower):
    """Whether node `upper` stood above node `lower` on screen: higher on the same stack, or on a
    navigator presented (directly or not) by `lower`'s. Nodes of side-by-side navigators are not."""
    navigators = {item["id"]: item for item in state["navigators"]}
    place = {node: (item["id"], index) for item in state["navigators"] for index, node in enumerate(item["stack"])}
    (upper_navigator, upper_index), (lower_navigator, lower_index) = place[upper], place[lower]
    if upper_navigator == lower_navigator:
        return upper_index > lower_index
    presenter = navigators[upper_navigator]["parent"]
    while presenter is not None:
        if presenter == lower_navigator:
            return True
        presenter = navigators[presenter]["parent"]
    return False


def node_facts(state):
    """Every node but the app coordinator: what an `added` event says about it."""
    facts, pending = {}, [(state["root"], None)]
    while pending:
        node, parent = pending.pop()
        if parent is not None:
            facts[node["id"]] = {"screen": node["screen"], "params": node["params"], "parent": parent,
                                 "navigator": node["navigator"], "presentation": node["presentation"]}
        pending.extend((child, node["id"]) for child in node["children"])
    return facts


def list_versions(state):
    return {id: node["list"]["version"] for id, node in nodes(state).items() if node.get("list")}


def random_operation(rng, state, app):
    """A random request, valid or not, built from the state and the app description."""
    ids = [id for id in nodes(state) if id != "n0"] or ["n1"]
    navigators = [item["id"] for item in state["navigators"]]
    screens = sorted(app["screens"])

    def screen_body():
        screen = rng.choice(screens)
        params = {name: str(rng.randint(1, 9)) for name in app["screens"][screen].get("params", [])}
        if rng.random() < 0.1 and params:
            params.popitem()                                                      # a missing param: 422
        return {"screen": screen, "params": params}

    def maybe(body, key, values, chance=0.4):
        if rng.random() < chance:
            body[key] = rng.choice(values)
        return body

    choice = rng.choices(
        ["push", "present", "navigate", "dismiss", "pop", "set-root", "deep-link", "finish", "flags", "select-tab", "list", "params"],
        weights=[14, 6, 12, 5, 10, 4, 5, 6, 3, 3, 4, 2])[0]
    if choice in ("push", "navigate"):
        return "POST", "/" + choice, maybe(screen_body(), "from", ids)
    if choice == "present":
        body = maybe(maybe(screen_body(), "from", ids), "style", ["pageSheet", "formSheet", "fullScreen"])
        return "POST", "/present", maybe(body, "embedInNavigation", [True, False])
    if choice == "dismiss":
        return "POST", "/dismiss", maybe({}, "node", ids)
    if choice == "pop":
        return "POST", "/pop", rng.choice([{}, {}, {"to": rng.choice(ids)}, {"toRoot": True}, {"navigator": rng.choice(navigators)},
                                           {"navigator": rng.choice(navigators), "toRoot": True}])
    if choice == "set-root":
        body = screen_body() if rng.random() < 0.5 else {"stack": [screen_body() for _ in range(rng.randint(1, 3))]}
        return "POST", "/set-root", maybe(body, "navigator", navigators, 0.3)
    if choice == "deep-link":
        route = rng.choice(app["routes"])["path"]
        url = "/".join(str(rng.randint(1, 9)) if part.startswith(":") else part for part in route.split("/"))
        return "POST", "/deep-link", {"url": url if rng.random() < 0.9 else "/nowhere"}
    if choice == "finish":
        status = rng.choice(["success", "cancelled"])
        flow = (state["pending"] or {}).get("flow")
        return "POST", "/finish", {"node": flow if flow and rng.random() < 0.6 else rng.choice(ids), "result": {"status": status}}
    if choice == "flags":
        return "POST", "/flags", rng.choice([{"set": ["signedIn"]}, {"clear": ["signedIn"]}, {"set": ["beta"]},
                                             {"clear": ["beta", "signedIn"]}, {"set": ["onboarded"]}, {"clear": ["onboarded"]}])
    if choice == "params":
        node = rng.choice(ids)
        return "PATCH", f"/nodes/{node}/params", {"set": {rng.choice(["userId", "photoId", "step", "color"]): str(rng.randint(1, 3))}}
    if choice == "select-tab":
        tabs = [item["id"] for item in state["tabs"]["items"]] if state["tabs"] else ["home"]
        return "POST", "/select-tab", {"tab": rng.choice(tabs)}
    items = [{"id": str(item), "kind": "row", "content": {"n": rng.randint(0, 2)}} for item in rng.sample(range(8), rng.randint(0, 5))]
    return "PUT", f"/nodes/{rng.choice(ids)}/list", {"sections": [{"id": "s", "items": items}]}


@pytest.mark.parametrize("app_name, layout, seed, store", [
    ("basic", "stack", 12, "memory"), ("basic", "split", 1207, "memory"), ("tabs", "stack", 31, "memory"), ("tabs", "stack", 5, "sqlite"),
    ("demo", None, 31, "memory"), ("demo", None, 8, "sqlite")])
def test_replaying_the_log_from_any_earlier_state_gives_the_current_nodes(
        server, tabs_server, demo_server, tmp_path, app_name, layout, seed, store):
    if store == "sqlite":
        app = ("--app", str(APPS / "tabs.json")) if app_name == "tabs" else ()
        running = RunningServer(*app, "--store", f"sqlite:{tmp_path / 'replay.sqlite'}", "--rate-limit", "0")
        try:
            follow_random_operations(running, app_name, layout, seed)
        finally:
            assert running.stop() == 0
    else:
        follow_random_operations({"basic": server, "tabs": tabs_server, "demo": demo_server}[app_name], app_name, layout, seed)


def follow_random_operations(running, app_name, layout, seed):
    """Random operations, valid or not: each answer and block checked against a replica that
    follows the log, then the log replayed from earlier states and compared with the stream."""
    app = running.request("GET", "/v1/app")[2]
    assert app["name"] == app_name
    session = running.create_session(**({"layout": layout} if layout else {}))
    rng = random.Random(seed)
    state = session.get()
    replica = Replica(state)
    snapshots = [(replica.copy(), 0)]
    stream = EventStream(session)
    outcomes, log = {}, []
    try:
        for step in range(300):
            method, suffix, body = random_operation(rng, state, app)
            status, _, answer = session.call(method, suffix, body)
            after = session.get()
            block = session.events(state["lastEvent"])["events"]
            outcomes[status] = outcomes.get(status, 0) + 1
            context = (step, method, suffix, body, status, answer)
            if status != 200:
                assert after == state and block == [], context                   # a failure changes nothing
            elif after["version"] == state["version"]:
                # a no-op: flags already so, the selected tab, a link to what is shown, equal params,
                # or a guarded target that replaces the same target while its flow shows
                guarded = (state["pending"] or {}).get("steps") and suffix in ("/push", "/present", "/navigate", "/set-root")
                assert block == [] and after == state, context
                assert suffix in ("/flags", "/select-tab", "/deep-link") or suffix.endswith("/params") or guarded, context
            else:
                assert after["version"] == state["version"] + 1, context
                check_block(block, after["version"], state["lastEvent"] + 1)
                replica.apply(block, before=state)
                replica.assert_matches(after)
                snapshots.append((replica.copy(), after["lastEvent"]))
                log.extend(block)
            assert after["lastEvent"] == session.events(after["lastEvent"])["last"]
            state = after
        frames = stream.read_events(state["lastEvent"])
    finally:
        stream.close()
    assert outcomes.get(200, 0) > 60 and len(outcomes) > 2, outcomes
    # a follower of the stream was sent exactly the log, block by block
    assert [frame["data"] for frame in frames] == log
    split_blocks(log)
    # replaying from any earlier state (creation included) gives exactly the current nodes
    for replica, last in snapshots[::7] + snapshots[-1:]:
        replica = replica.copy()
        for block in split_blocks([event for event in log if event["seq"] > last]):
            replica.apply(block)
        replica.assert_matches(state)


def test_clients_changing_one_session_at_once_get_one_ordered_log(server):
    session = server.create_session()
    created = session.get()
    stream = EventStream(session)
    operations = [("push", {"screen": "settings"}), ("pop", {}), ("present", {"screen": "onboarding"}), ("dismiss", {}),
                  ("flags", {"set": ["a"]}), ("flags", {"clear": ["a"]}), ("navigate", {"screen": "photo", "params": {"photoId": "1"}})]

    def drive(seed):
        client, rng, versions = session.other_client(), random.Random(seed), []
        for _ in range(60):
            name, body = rng.choice(operations)
            status, _, answer = client.call("POST", "/" + name, body)
            assert status in (200, 409), (name, status, answer)
            versions.append(answer["version"] if status == 200 else None)
        return versions

    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            answered = [version for versions in pool.map(drive, range(4)) for version in versions if version]
        state = session.get()
        frames = stream.read_events(state["lastEvent"])
    finally:
        stream.close()
    # the follower was sent the whole log in order, as the log's newest page shows it
    log = [frame["data"] for frame in frames]
    assert [event["seq"] for event in log] == list(range(1, state["lastEvent"] + 1))
    newest = session.events(max(0, state["lastEvent"] - 40))["events"]
    assert newest == log[len(log) - len(newest):]
    blocks = split_blocks(log)
    assert [block[0]["version"] for block in blocks] == list(range(2, state["version"] + 1))
    assert set(answered) <= set(range(1, state["version"] + 1)) and max(answered) == state["version"]
    replica = Replica(created)
    for block in blocks:
        replica.apply(block)
    replica.assert_matches(state)
