"""Sample lists put by the server (`sampleLists: true`) over live HTTP, on the built-in demo app:
an operation that adds nodes gives each its screen's sample list in the same change (one version,
one block, the list's `":userId"` filled in from the node), on every operation that can add nodes;
the field is checked like any other (a typo or a wrong type is `400` and changes nothing); a
sample list over the server's limits refuses the operation naming the screen; a restart keeps
the lists (SQLite)."""
import pytest

from conftest import BINARY, RunningServer


def block(session, version):
    """The (type, node) of each event of one version."""
    return [(event["type"], event.get("node")) for event in session.events()["events"] if event["version"] == version]


def list_of(session, node):
    status, _, document = session.call("GET", f"/nodes/{node}/list")
    assert status == 200, document
    return document


def cell_ids(document):
    return [[item["id"] for item in section["items"]] for section in document["sections"]]


def test_a_navigation_brings_the_nodes_sample_list_in_the_same_change(demo_server):
    session = demo_server.create_session(flags=["onboarded", "signedIn"])
    state = session.op("navigate", {"screen": "profile", "params": {"userId": "42"}, "sampleLists": True})
    profile = state["focus"]
    assert state["version"] == 2
    assert block(session, 2) == [("added", profile), ("listChanged", profile)]
    listed = list_of(session, profile)
    assert listed["version"] == 1 and cell_ids(listed) == [["followers", "photo"]]
    followers = listed["sections"][0]["items"][0]["content"]["navigate"]
    assert followers == {"screen": "followers", "params": {"userId": "42"}}
    # A screen without a sample list gets none; without the field, no screen does.
    state = session.op("navigate", {"screen": "photo", "params": {"photoId": "7"}, "sampleLists": True})
    assert block(session, 3) == [("added", state["focus"])]
    session.op("dismiss")
    state = session.op("navigate", {"screen": "followers", "params": {"userId": "42"}})
    assert block(session, state["version"]) == [("added", state["focus"])]


@pytest.mark.parametrize("flags, operation, body, screens", [
    # signing in: the main flow's two tabs, home and account, each with its list
    ([], "flags", {"set": ["onboarded", "signedIn"]}, ["home", "account"]),
    (["onboarded", "signedIn"], "deep-link", {"url": "/users/7/followers"}, ["profile", "followers"]),
    (["onboarded", "signedIn"], "push", {"screen": "followers", "params": {"userId": "3"}}, ["followers"]),
    (["onboarded", "signedIn"], "set-root", {"screen": "account"}, ["account"]),
    (["onboarded", "signedIn"], "present", {"screen": "photo", "params": {"photoId": "1"}}, []),
])
def test_every_operation_that_adds_nodes_takes_the_field(demo_server, flags, operation, body, screens):
    session = demo_server.create_session(flags=flags)
    state = session.op(operation, {**body, "sampleLists": True})
    events = session.events()["events"]
    assert {event["version"] for event in events} == {2}
    added = {event["node"]: event["screen"] for event in events if event["type"] == "added"}
    listed = [event["node"] for event in events if event["type"] == "listChanged"]
    assert sorted(added[node] for node in listed) == sorted(screens)
    # the lists come last in the block, by node id
    assert listed == sorted(listed, key=lambda node: int(node[1:]))
    assert [event["type"] for event in events[len(events) - len(listed):]] == ["listChanged"] * len(listed)
    if operation == "deep-link":
        followers = next(node for node, screen in added.items() if screen == "followers")
        assert state["focus"] == followers
        assert cell_ids(list_of(session, followers)) == [["u7", "u4"]]


def test_finishing_a_flow_brings_the_next_flows_sample_lists(demo_server):
    session = demo_server.create_session()
    welcome = session.get()["focus"]
    state = session.op("finish", {"node": welcome, "result": {"status": "success"}, "sampleLists": True})
    assert state["flow"] == "auth"
    assert block(session, 2)[-1] == ("listChanged", state["focus"])
    assert cell_ids(list_of(session, state["focus"])) == [["sign-up"]]


@pytest.mark.parametrize("body, says", [
    ({"screen": "profile", "params": {"userId": "1"}, "sampleList": True}, "sampleLists"),
    ({"screen": "profile", "params": {"userId": "1"}, "sampleLists": "yes"}, "sampleLists"),
])
def test_a_typo_or_a_wrong_type_is_refused_and_changes_nothing(demo_server, body, says):
    session = demo_server.create_session(flags=["onboarded", "signedIn"])
    status, _, document = session.call("POST", "/navigate", body)
    assert status == 400 and says in document["error"]["message"], document
    assert session.get()["version"] == 1


def test_a_sample_list_over_the_servers_limit_refuses_the_operation():
    server = RunningServer("--rate-limit", "0", "--max-list-items", "2")
    try:
        session = server.create_session(flags=["onboarded", "signedIn"])
        status, _, document = session.call("POST", "/navigate", {"screen": "account", "sampleLists": True})
        assert status == 422, document
        assert "the sample list of screen 'account'" in document["error"]["message"]
        assert "--max-list-items" in document["error"]["message"]
        assert session.get()["version"] == 1
        # Without the field, the same navigation is fine.
        session.op("navigate", {"screen": "account"})
    finally:
        assert server.stop() == 0


def test_sample_lists_put_with_their_nodes_survive_a_restart(tmp_path):
    store = f"sqlite:{tmp_path / 'minerva.sqlite'}"
    assert BINARY.exists()
    server = RunningServer("--rate-limit", "0", "--store", store)
    try:
        session = server.create_session(flags=["onboarded", "signedIn"])
        state = session.op("navigate", {"screen": "profile", "params": {"userId": "3"}, "sampleLists": True})
        before = list_of(session, state["focus"])
    finally:
        assert server.stop() == 0
    server = RunningServer("--rate-limit", "0", "--store", store)
    try:
        session.server = server
        assert list_of(session, state["focus"]) == {**before, "diff": list_of(session, state["focus"])["diff"]}
        assert session.get()["version"] == 2
    finally:
        assert server.stop() == 0
