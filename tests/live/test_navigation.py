"""Navigation operations over live HTTP, with the events they cause."""
import pytest

from conftest import EventStream, split_blocks


def nodes(state):
    """Every node of the state document by id."""
    found, pending = {}, [state["root"]]
    while pending:
        node = pending.pop()
        found[node["id"]] = node
        pending.extend(node["children"])
    return found


def navigator(state, id):
    return next(item for item in state["navigators"] if item["id"] == id)


def removals(session, after=0):
    """(node, reason) of every `removed` event after `after`, in order."""
    return [(event["node"], event["reason"]) for event in session.events(after)["events"] if event["type"] == "removed"]


def test_push_makes_a_child_of_the_focus_on_its_navigator(session):
    state = session.op("push", {"screen": "profile", "params": {"userId": "42"}})
    assert state["focus"] == "n2"
    profile = nodes(state)["n2"]
    assert profile["params"] == {"userId": "42"} and profile["presentation"] == {"kind": "push"}
    assert profile["navigator"] == "v0"
    assert [child["id"] for child in nodes(state)["n1"]["children"]] == ["n2"]
    assert navigator(state, "v0")["stack"] == ["n1", "n2"]


def test_push_from_below_the_top_goes_on_top(session):
    session.op("push", {"screen": "settings"})
    state = session.op("push", {"screen": "followers", "from": "n1", "params": {"userId": 7}})
    assert navigator(state, "v0")["stack"] == ["n1", "n2", "n3"]
    assert [child["id"] for child in nodes(state)["n1"]["children"]] == ["n2", "n3"]
    assert nodes(state)["n3"]["params"] == {"userId": 7}


def test_present_makes_a_navigator_and_takes_the_screens_style(session):
    state = session.op("present", {"screen": "photo", "params": {"photoId": "p1"}})
    photo = nodes(state)["n2"]
    assert photo["presentation"] == {"kind": "present", "style": "fullScreen", "level": "window"}
    assert photo["navigator"] == "v1"
    assert navigator(state, "v0")["presented"] == "n2"
    assert navigator(state, "v1") == {"id": "v1", "stack": ["n2"], "presented": None, "parent": "v0", "embedded": False}
    assert state["focus"] == "n2"


def test_present_with_explicit_style_and_embedding_accepts_pushes(session):
    state = session.op("present", {"screen": "settings", "style": "pageSheet", "embedInNavigation": True})
    assert nodes(state)["n2"]["presentation"] == {"kind": "present", "style": "pageSheet", "level": "window"}
    state = session.op("push", {"screen": "profile", "params": {"userId": "1"}})
    assert navigator(state, "v1")["stack"] == ["n2", "n3"]
    assert state["focus"] == "n3"


@pytest.mark.parametrize("style", ["popover", "currentContext", "overCurrentContext", "custom", "overFullScreen"])
def test_present_keeps_every_uikit_modal_style(session, style):
    anchor = {"anchor": {"item": "row-1"}} if style == "popover" else {}
    state = session.op("present", {"screen": "settings", "style": style, **anchor})
    level = "context" if style in ("currentContext", "overCurrentContext") else "window"
    assert nodes(state)["n2"]["presentation"] == {"kind": "present", "style": style, "level": level}
    added = session.events()["events"][-1]
    assert added["type"] == "added" and added["presentation"] == {"kind": "present", "style": style, "level": level}


def test_present_defaults_to_automatic(session):
    state = session.op("present", {"screen": "settings"})
    assert nodes(state)["n2"]["presentation"] == {"kind": "present", "style": "automatic", "level": "window"}


def test_push_onto_a_presented_navigator_that_is_not_embedded_is_409(session):
    session.op("present", {"screen": "photo", "params": {"photoId": "1"}})
    body = session.op("push", {"screen": "settings"}, expect=409)
    assert body["error"]["code"] == "conflict"
    assert session.get()["version"] == 2


def test_presenting_twice_from_one_navigator_is_409(session):
    session.op("present", {"screen": "settings"})
    session.op("present", {"screen": "settings", "from": "n1"}, expect=409)
    # but the presented navigator may present in turn
    state = session.op("present", {"screen": "photo", "params": {"photoId": "9"}})
    assert navigator(state, "v1")["presented"] == "n3"


def test_dismiss_removes_the_modal_and_everything_above_it(session):
    session.op("present", {"screen": "onboarding"})            # n2 on v1, embedded
    session.op("push", {"screen": "onboardingStep", "params": {"step": 1}})  # n3
    session.op("present", {"screen": "photo", "params": {"photoId": "1"}})  # n4 on v2
    state, block = session.block("POST", "/dismiss", {"node": "n2"})
    assert set(nodes(state)) == {"n0", "n1"}
    assert [item["id"] for item in state["navigators"]] == ["v0"]
    assert navigator(state, "v0")["presented"] is None
    assert [(event["type"], event["node"], event["screen"], event["reason"], event["navigator"]) for event in block[:3]] == [
        ("removed", "n4", "photo", "dismiss", "v2"), ("removed", "n3", "onboardingStep", "dismiss", "v1"),
        ("removed", "n2", "onboarding", "dismiss", "v1")]
    # The dismissed flow's parent stays: it learns that the flow was cancelled (onboarding says it
    # returns no result, so none is held for the parent's client to take).
    assert [(event["type"], event["node"], event["parent"], event["result"], event["held"]) for event in block[3:]] == [
        ("finished", "n2", "n1", {"status": "cancelled", "cause": "dismiss"}, False)]
    assert "results" not in nodes(state)["n1"]
    assert [event["seq"] for event in block] == [4, 5, 6, 7] and {event["version"] for event in block} == {5}


def test_dismiss_defaults_to_the_top_most_presentation(session):
    session.op("present", {"screen": "settings"})
    session.op("present", {"screen": "photo", "params": {"photoId": "1"}})
    state = session.op("dismiss")
    assert set(nodes(state)) == {"n0", "n1", "n2"} and state["focus"] == "n2"


def test_dismiss_errors(session):
    session.op("dismiss", expect=409)
    session.op("dismiss", {"node": "n1"}, expect=409)
    session.op("dismiss", {"node": "n99"}, expect=404)
    assert session.get()["version"] == 1


def test_pop_top_to_and_to_root(session):
    for index in range(4):
        session.op("push", {"screen": "followers", "params": {"userId": index}})
    state = session.op("pop")
    assert navigator(state, "v0")["stack"] == ["n1", "n2", "n3", "n4"]
    state = session.op("pop", {"to": "n2"})
    assert navigator(state, "v0")["stack"] == ["n1", "n2"]
    session.op("push", {"screen": "settings"})
    state = session.op("pop", {"toRoot": True})
    assert navigator(state, "v0")["stack"] == ["n1"]
    assert removals(session) == [("n5", "pop"), ("n4", "pop"), ("n3", "pop"), ("n6", "pop"), ("n2", "pop")]
    blocks = split_blocks(session.events()["events"])
    assert [[event["type"] for event in block] for block in blocks] == [["added"]] * 4 + [
        ["removed"], ["removed", "removed"], ["added"], ["removed", "removed"]]


def test_pop_removes_whole_subtrees_with_ancestor_removed(session):
    session.op("push", {"screen": "settings"})                    # n2
    session.op("present", {"screen": "onboarding"})                # n3 presented from n2
    session.op("push", {"screen": "onboardingStep", "params": {"step": 1}})  # n4
    state, block = session.block("POST", "/pop", {"navigator": "v0"})
    assert set(nodes(state)) == {"n0", "n1"}
    assert [item["id"] for item in state["navigators"]] == ["v0"]
    assert [(event["type"], event["node"], event["reason"], event["navigator"]) for event in block] == [
        ("removed", "n4", "ancestorRemoved", "v1"), ("removed", "n3", "ancestorRemoved", "v1"), ("removed", "n2", "pop", "v0")]


def test_pop_errors(session):
    session.op("pop", expect=409)                              # root
    session.op("pop", {"toRoot": True}, expect=409)            # nothing to pop
    session.op("pop", {"to": "n1"}, expect=409)                # already top
    session.op("pop", {"navigator": "v9"}, expect=404)
    session.op("pop", {"to": "n9"}, expect=404)
    session.op("pop", {"to": "n1", "toRoot": True}, expect=422)
    session.op("pop", {"to": "n0"}, expect=409)
    session.op("present", {"screen": "settings"})
    session.op("pop", {"to": "n1", "navigator": "v1"}, expect=422)
    body = session.op("pop", expect=409)                       # presented root: dismiss instead
    assert "dismiss" in body["error"]["message"]
    assert session.get()["version"] == 2


def test_set_root_replaces_the_stack(session):
    session.op("push", {"screen": "settings"})
    state, block = session.block("POST", "/set-root", {"stack": [{"screen": "profile", "params": {"userId": "1"}},
                                                                {"screen": "followers", "params": {"userId": "1"}}]})
    all_nodes = nodes(state)
    assert navigator(state, "v0")["stack"] == ["n3", "n4"]
    assert all_nodes["n3"]["presentation"] == {"kind": "root"} and all_nodes["n4"]["presentation"] == {"kind": "push"}
    assert [child["id"] for child in all_nodes["n0"]["children"]] == ["n3", "n4"]
    assert removals(session) == [("n2", "setRoot"), ("n1", "setRoot")]
    assert [(event["type"], event["node"]) for event in block] == [
        ("removed", "n2"), ("removed", "n1"), ("added", "n3"), ("added", "n4")]
    assert [{key: block[index][key] for key in ("screen", "params", "parent", "navigator", "presentation")} for index in (2, 3)] == [
        {"screen": "profile", "params": {"userId": "1"}, "parent": "n0", "navigator": "v0", "presentation": {"kind": "root"}},
        {"screen": "followers", "params": {"userId": "1"}, "parent": "n0", "navigator": "v0", "presentation": {"kind": "push"}}]


def test_set_root_single_screen_on_a_presented_navigator(session):
    session.op("present", {"screen": "photo", "params": {"photoId": "1"}})
    state = session.op("set-root", {"screen": "photo", "params": {"photoId": "2"}})
    photo = nodes(state)["n3"]
    assert photo["presentation"] == {"kind": "present", "style": "fullScreen", "level": "window"}
    assert navigator(state, "v0")["presented"] == "n3"
    assert [child["id"] for child in nodes(state)["n1"]["children"]] == ["n3"]
    session.op("set-root", {"stack": [{"screen": "settings"}, {"screen": "settings"}]}, expect=409)


def test_set_root_errors(session):
    session.op("set-root", {}, expect=400)
    session.op("set-root", {"stack": []}, expect=422)
    session.op("set-root", {"screen": "nope"}, expect=422)
    session.op("set-root", {"screen": "profile"}, expect=422)
    session.op("set-root", {"screen": "home", "navigator": "v5"}, expect=404)
    session.op("set-root", {"stack": "home"}, expect=400)
    assert session.get()["version"] == 1


def test_events_after_and_last(session):
    session.op("push", {"screen": "settings"})
    session.op("push", {"screen": "settings"})
    session.op("pop", {"toRoot": True})
    everything = session.events(0)
    assert everything["last"] == 4 and session.get()["lastEvent"] == 4
    assert [(event["seq"], event["version"], event["type"], event["node"]) for event in everything["events"]] == [
        (1, 2, "added", "n2"), (2, 3, "added", "n3"), (3, 4, "removed", "n3"), (4, 4, "removed", "n2")]
    later = session.events(1)
    assert later["events"] == everything["events"][1:] and later["last"] == 4
    assert session.events(4) == {"events": [], "last": 4}
    assert session.events(5) == {"events": [], "last": 4}
    status, _, body = session.call("GET", "/events?after=-1")
    assert status == 400
    status, _, body = session.call("GET", "/events?after=abc")
    assert status == 400


def test_events_are_truncated_after_a_thousand(session):
    for _ in range(130):                                # 8 events a round: 4 added, then 4 removed
        session.op("push", {"screen": "settings"})
        session.op("push", {"screen": "settings"})
        session.op("push", {"screen": "settings"})
        session.op("push", {"screen": "settings"})
        session.op("pop", {"toRoot": True})
    everything = session.events(0)
    assert everything["last"] == 1040 and everything["truncated"] is True
    assert len(everything["events"]) == 1000 and everything["events"][0]["seq"] == 41
    assert [event["seq"] for event in everything["events"]] == list(range(41, 1041))
    assert "truncated" not in session.events(40)
    # a stream resumed from before the oldest kept event says so first, then sends what is kept
    stream = EventStream(session, {"Last-Event-ID": "1"})
    try:
        assert stream.read_events(1000, timeout=15)[-1]["id"] == "1040"
    finally:
        stream.close()
    frames = [frame for frame in stream.frames if "event" in frame]
    assert frames[0]["event"] == "truncated" and "id" not in frames[0]
    assert [frame["id"] for frame in frames[1:]] == [str(seq) for seq in range(41, 1041)]
