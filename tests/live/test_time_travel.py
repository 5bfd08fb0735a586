"""Time travel through a session over real HTTP, with the memory store, SQLite and PostgreSQL:
`GET …/versions/{v}` gives the state document as it was at `v` for every kept version, and
`POST …/restore` makes an earlier version current again as a new version that can itself be undone."""
import random

import pytest

from conftest import APPS, BINARY, RunningServer, check_block
from postgres import PostgresCluster

ARGUMENTS = ("--app", str(APPS / "basic.json"), "--rate-limit", "0", "--max-session-bytes", "1048576", "--max-sessions", "2000")
SCREENS = {"home": {}, "settings": {}, "profile": {"userId": "1"}, "followers": {"userId": "2"}, "photo": {"photoId": "p"},
           "onboarding": {}, "onboardingStep": {"step": 1}, "secret": {}}
LINKS = ["/users/1", "/users/2/followers", "/photos/3", "/secret/4", "/sheet"]


@pytest.fixture(scope="module")
def postgres():
    cluster = PostgresCluster.create()
    yield cluster
    cluster.cleanup()


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def server(request, tmp_path):
    """One server on each store."""
    assert BINARY.exists(), f"build the server first: {BINARY} is missing"
    store = {"memory": "memory", "sqlite": f"sqlite:{tmp_path / 'minerva.sqlite'}"}.get(request.param)
    running = RunningServer(*ARGUMENTS, "--store", store or request.getfixturevalue("postgres").url())
    yield running
    assert running.stop() == 0, "".join(running.log[-20:])


def random_operation(session, rng):
    """One random operation, valid or not: (name, body)."""
    state = session.state
    nodes = [node for node in walk(state["root"]) if node["id"] != "n0"]
    node = rng.choice(nodes)["id"]
    screen = rng.choice(list(SCREENS))
    kind = rng.randrange(11)
    if kind < 3:
        return "push", {"screen": screen, "params": SCREENS[screen], **({"from": node} if rng.random() < 0.3 else {})}
    if kind == 3:
        return "present", {"screen": screen, "params": SCREENS[screen], "embedInNavigation": rng.random() < 0.5}
    if kind == 4:
        return "dismiss", {}
    if kind == 5:
        return "pop", rng.choice([{}, {"toRoot": True}, {"to": node}])
    if kind == 6:
        return "navigate", {"screen": screen, "params": SCREENS[screen]}
    if kind == 7:
        return "deep-link", {"url": rng.choice(LINKS)}
    if kind == 8:
        return "flags", rng.choice([{"set": ["signedIn"]}, {"clear": ["signedIn"]}])
    if kind == 9:
        return "finish", {"node": node, "result": {"status": rng.choice(["success", "cancelled"])}}
    stack = next((n["stack"] for n in state["navigators"] if node in n["stack"]), [])
    entries = [{"node": kept} for kept in stack if rng.random() < 0.5] + [{"screen": "settings"}] * rng.randrange(2)
    rng.shuffle(entries)
    return "set-root", {"stack": entries or [{"screen": "settings"}]}


def walk(node):
    yield node
    for child in node["children"]:
        yield from walk(child)


def without(document, *keys):
    return {key: value for key, value in document.items() if key not in keys}


def without_results(document):
    """The state document without the results its nodes hold (a restore keeps today's)."""
    def strip(node):
        return {**{key: value for key, value in node.items() if key != "results"}, "children": [strip(child) for child in node["children"]]}
    return {**document, "root": strip(document["root"])}


def version(session, v, lists="none"):
    status, _, document = session.call("GET", f"/versions/{v}?lists={lists}")
    assert status == 200, (v, document)
    return document


def restore(session, v):
    """A restore that must change the session: (answer, its block of events), checked as one block."""
    before = session.get()
    status, _, answer = session.call("POST", "/restore", {"version": v})
    assert status == 200, (v, answer)
    after = session.get()
    assert without(answer, "restored") == after and after["version"] == before["version"] + 1
    events = session.events(before["lastEvent"])["events"]
    check_block(events, after["version"], before["lastEvent"] + 1)
    return answer, events


def drive(session, rng, count):
    """Runs `count` random operations; the state document (lists=none) of every version made."""
    seen = {session.state["version"]: session.call("GET", "?lists=none")[2]}
    for _ in range(count):
        name, body = random_operation(session, rng)
        status, _, answer = session.call("POST", "/" + name, body)
        if status == 200:
            session.state = answer
            seen[answer["version"]] = session.call("GET", "?lists=none")[2]
        if rng.random() < 0.1 and len(seen) > 2:
            status, _, answer = session.call("POST", "/restore", {"version": rng.choice(list(seen))})
            assert status in (200, 409), answer
            if status == 200:
                session.state = answer
                seen[answer["version"]] = session.call("GET", "?lists=none")[2]
    return seen


@pytest.mark.parametrize("seed", [1, 2])
def test_every_version_is_the_state_document_that_was_current_then(server, seed):
    session = server.create_session()
    seen = drive(session, random.Random(seed), 150)
    assert len(seen) > 60
    for v, document in seen.items():
        assert without(version(session, v), "lastEvent") == without(document, "lastEvent"), v


def test_restore_then_undo_gives_back_the_original(server):
    session = server.create_session()
    rng = random.Random(7)
    drive(session, rng, 60)
    for target in (1, 5, 20):
        original = session.call("GET", "?lists=none")[2]
        earlier = version(session, target)
        answer, events = restore(session, target)
        assert answer["restored"] == {"version": target, "lists": [], "listsDropped": []}
        assert answer["version"] == original["version"] + 1
        # Results are not restored: the nodes that stay keep today's.
        # Nor are the id counters: an id is never made twice, so they keep today's.
        restored = session.call("GET", "?lists=none")[2]
        assert (restored["nextNode"], restored["nextNavigator"]) == (original["nextNode"], original["nextNavigator"])
        assert without_results(without(restored, "version", "lastEvent", "flags", "nextNode", "nextNavigator")) == \
            without_results(without(earlier, "version", "lastEvent", "flags", "nextNode", "nextNavigator"))
        assert session.state["flags"] == original["flags"], "flags are not restored"
        assert {event["type"] for event in events} <= {"removed", "added", "tabSelected", "pendingChanged"}
        assert all(event["reason"] == "restore" for event in events if event["type"] == "removed")
        restore(session, original["version"])
        assert without(session.call("GET", "?lists=none")[2], "version", "lastEvent") == without(original, "version", "lastEvent")


def test_node_ids_come_back_and_new_ones_are_never_reused(server):
    session = server.create_session()
    session.op("push", {"screen": "settings"})
    session.op("push", {"screen": "profile", "params": {"userId": "1"}})
    session.op("pop", {"toRoot": True})
    _, events = restore(session, 3)
    assert [(event["type"], event["node"]) for event in events] == [("added", "n2"), ("added", "n3")]
    assert session.op("push", {"screen": "settings"})["focus"] == "n4"


def test_a_list_comes_back_as_a_new_list_version(server):
    session = server.create_session()
    cells = lambda *ids: {"sections": [{"id": "s", "items": [{"id": i, "kind": "row"} for i in ids]}]}
    assert session.call("PUT", "/nodes/n1/list", cells("a", "b"))[0] == 200
    first = session.get()["version"]
    assert session.call("PUT", "/nodes/n1/list", cells("c"))[0] == 200
    session.op("push", {"screen": "settings"})
    past = version(session, first, lists="full")
    assert past["root"]["children"][0]["list"]["version"] == 1
    assert [cell["id"] for cell in past["root"]["children"][0]["list"]["sections"][0]["items"]] == ["a", "b"]
    answer, events = restore(session, first)
    assert answer["restored"] == {"version": first, "lists": ["n1"], "listsDropped": []}
    assert [event["type"] for event in events] == ["removed", "listChanged"]
    assert events[-1]["list"] == 3 and events[-1]["from"] == 2
    status, _, list_document = session.call("GET", "/nodes/n1/list")
    assert status == 200 and [cell["id"] for cell in list_document["sections"][0]["items"]] == ["a", "b"]


def test_every_version_shows_its_lists_as_they_were_also_of_screens_gone_since(server):
    """Lists and UI state of nodes that left stay as long as the log shows them: every version
    reads back with the lists and UI state the client saw then (before, a removed node's lists
    went with it)."""
    session = server.create_session()
    rng = random.Random(11)
    seen = {1: session.call("GET", "?lists=full")[2]}
    for index in range(120):
        nodes = [node["id"] for node in walk(session.state["root"])]
        if rng.random() < 0.4:
            items = [{"id": f"i{item}", "kind": "row", "content": {"n": index}} for item in range(rng.randrange(4))]
            status, _, _ = session.call("PUT", f"/nodes/{rng.choice(nodes)}/list", {"sections": [{"id": "s", "items": items}]})
            assert status == 200
        elif rng.random() < 0.2:
            status, _, _ = session.call("PUT", f"/nodes/{rng.choice(nodes[1:])}/ui", {"scrollAnchor": f"row-{index}"})
            assert status == 200
        else:
            name, body = random_operation(session, rng)
            status, _, answer = session.call("POST", "/" + name, body)
            if status != 200:
                continue
        session.state = session.call("GET", "?lists=full")[2]
        seen[session.state["version"]] = session.state
    gone = {node["id"] for node in walk(session.state["root"])}
    for member in ("list", "ui"):
        assert {node["id"] for document in seen.values() for node in walk(document["root"]) if node.get(member)} - gone, \
            f"the walk removed no node that had a {member}"
    for v, document in seen.items():
        assert without(version(session, v, lists="full"), "lastEvent") == without(document, "lastEvent"), v


def test_a_screen_that_comes_back_brings_its_list(server):
    session = server.create_session()
    session.op("push", {"screen": "settings"})
    cells = {"sections": [{"id": "s", "items": [{"id": "a", "kind": "row"}, {"id": "b", "kind": "row"}]}]}
    assert session.call("PUT", "/nodes/n2/list", cells)[0] == 200
    assert session.call("PUT", "/nodes/n2/list", cells)[0] == 200
    shown = session.get()["version"]
    session.op("pop")
    node = lambda document: next(node for node in walk(document["root"]) if node["id"] == "n2")
    assert "list" not in node(version(session, shown - 2, lists="full"))
    assert node(version(session, shown, lists="full"))["list"]["version"] == 2
    answer, events = restore(session, shown)
    assert answer["restored"] == {"version": shown, "lists": ["n2"], "listsDropped": []}
    # a first list of the node that came back, numbered after every version its list had
    changed = [event for event in events if event["type"] == "listChanged"]
    assert [(event["node"], event["list"], event["from"]) for event in changed] == [("n2", 3, 0)] and changed[0] == events[-1]
    status, _, document = session.call("GET", "/nodes/n2/list")
    assert status == 200 and document["version"] == 3 and [cell["id"] for cell in document["sections"][0]["items"]] == ["a", "b"]
    # and every version still reads back as it was, the one before the pop too
    assert node(version(session, shown, lists="full"))["list"]["version"] == 2
    # The restore's own version reads the same before and after a later version exists: the
    # list that came back diffs from nothing (0), as its event said.
    restored = answer["version"]
    came_back = node(version(session, restored, lists="full"))["list"]
    assert (came_back["version"], came_back["diff"]["from"]) == (3, 0)
    session.op("push", {"screen": "profile", "params": {"userId": "1"}})
    assert node(version(session, restored, lists="full"))["list"] == came_back


def test_a_guarded_screen_does_not_come_back_without_its_flag(server):
    session = server.create_session()
    session.op("flags", {"set": ["signedIn"]})
    session.op("push", {"screen": "secret"})
    shown = session.state["version"]
    session.op("flags", {"clear": ["signedIn"]})
    session.op("pop", {})
    before = session.get()
    status, _, answer = session.call("POST", "/restore", {"version": shown})
    assert status == 409 and "signedIn" in answer["error"]["message"], answer
    assert session.get() == before


def test_restore_is_a_mutation_like_any_other(server):
    session = server.create_session()
    session.op("push", {"screen": "settings"})
    status, _, answer = session.call("POST", "/restore", {"versoin": 1})
    assert status == 400 and "'versoin'" in answer["error"]["message"] and "'version'" in answer["error"]["message"], answer
    status, _, answer = session.call("POST", "/restore", {"version": "1"})
    assert status == 400, answer
    status, headers, answer = session.call("POST", "/restore", {"version": 1}, headers={"If-Match": '"1"'})
    assert status == 412, answer
    key = {"Idempotency-Key": "undo-1"}
    status, _, first = session.call("POST", "/restore", {"version": 1}, headers=key)
    assert status == 200 and first["version"] == 3
    status, headers, again = session.call("POST", "/restore", {"version": 1}, headers=key)
    assert status == 200 and again == first and headers["Idempotent-Replayed"] == "true"
    assert session.get()["version"] == 3
    status, _, answer = session.call("POST", "/restore", {"version": 3})
    assert status == 200 and answer["version"] == 3, "going back to the current version changes nothing"


def test_versions_not_kept_or_ahead_are_404_and_name_the_kept_ones(server):
    session = server.create_session()
    session.op("push", {"screen": "settings"})
    for bad in ("0", "x", "01"):
        assert session.call("GET", f"/versions/{bad}")[0] == 400
    status, _, answer = session.call("GET", "/versions/9")
    assert status == 404 and "version 2" in answer["error"]["message"], answer
    status, _, answer = session.call("POST", "/restore", {"version": 9})
    assert status == 404, answer
    # The schema's largest version is ahead (404); one past it is no integer the server reads (400).
    assert session.call("POST", "/restore", {"version": 9223372036854775807})[0] == 404
    status, _, answer = session.call("POST", "/restore", raw=b'{"version": 9223372036854775808}',
                                     headers={"Content-Type": "application/json"})
    assert status == 400 and "'version'" in answer["error"]["message"], answer
    assert session.get()["version"] == 2


def test_after_the_log_drops_old_events_every_version_from_before_the_oldest_kept_event_is_served(server):
    session = server.create_session()
    seen = {1: session.call("GET", "?lists=none")[2]}
    for index in range(1200):                      # one event each: 1,200 events, over the 1,000 kept
        session.op("push" if index % 2 == 0 else "pop", {"screen": "settings"} if index % 2 == 0 else {})
        seen[session.state["version"]] = session.state
    status, _, answer = session.call("GET", "/versions/1")
    assert status == 404 and "can go back to versions" in answer["error"]["message"], answer
    oldest = int(answer["error"]["message"].split("versions ")[-1].split(" ")[0])
    page = session.events(0)
    assert page["truncated"], page
    promised = page["events"][0]["version"] - 1    # the version before the oldest kept event
    # no later than promised, and no more than the events since the checkpoint before it earlier
    # (checkpoints come every 8 KiB of events: at most about 85 of these, 96 bytes or more each)
    assert promised - 90 <= oldest <= promised, (oldest, promised)
    last = session.state["version"]
    for v in (oldest, promised, promised + 1, last - 1, last):
        assert without(version(session, v), "lastEvent") == without(seen[v], "lastEvent"), v
    assert session.call("GET", f"/versions/{oldest - 1}")[0] == 404


def test_across_instances_on_postgres(postgres):
    first, second = (RunningServer(*ARGUMENTS, "--store", postgres.url()) for _ in range(2))
    try:
        session = first.create_session()
        seen = drive(session, random.Random(3), 40)
        there = session.on(second)
        for v, document in seen.items():
            assert without(version(there, v), "lastEvent") == without(document, "lastEvent"), v
        answer, _ = restore(there, 1)
        assert session.get() == there.get()
        assert without(version(session, answer["version"]), "lastEvent") == without(session.state, "lastEvent")
    finally:
        assert [first.stop(), second.stop()] == [0, 0]
