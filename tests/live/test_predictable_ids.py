"""Ids a client can predict: the state's counters (`nextNode`, `nextNavigator`) give every id a
change makes, over random walks on three apps' files (a bank of root flows and tabs, a news
reader's 3-column split that changes size class, a food app with a guarded checkout); and an id
a change names is the node it names or the change is refused — `409 removed` for a node the
session had (another device removed it first), `404` for one it never had."""
import json
import random
import re

import pytest

from conftest import FLOW_APPS as FILES
from conftest import RunningServer
from postgres import PostgresCluster
from test_flow_states import walk

FLAGS = {"bank": ["onboarded", "verified", "signedIn"], "news": [], "food": ["signedIn"]}


def number(node_id):
    return int(node_id[1:])


def presented_number(navigator_id):
    """The number of a presented navigator's id (`v3` → 3); None for a base navigator's."""
    match = re.fullmatch(r"v([0-9]+)", navigator_id)
    return int(match.group(1)) if match and navigator_id != "v0" else None


def random_change(rng, state, app, name):
    """One random operation (valid or not) on the session in `state`: (path, body)."""
    nodes = [node["id"] for node in walk(state["root"])]
    screens = app["screens"]

    def target():
        screen = rng.choice(sorted(screens))
        return screen, {param: str(rng.randint(1, 3)) for param in screens[screen].get("params", [])}

    def origin():
        return {} if rng.random() < 0.5 else {"from": rng.choice(nodes)}

    kind = rng.randrange(11)
    if kind in (0, 1, 2):
        screen, params = target()
        return "navigate", {"screen": screen, "params": params, **origin()}
    if kind == 3:
        screen, params = target()
        return "push", {"screen": screen, "params": params, **origin()}
    if kind == 4:
        screen, params = target()
        return "present", {"screen": screen, "params": params, **origin()}
    if kind == 5:
        return "pop", {}
    if kind == 6:
        return "dismiss", {}
    if kind == 7:
        route = rng.choice(app.get("routes", []))
        path = re.sub(r":[A-Za-z]+", lambda _: str(rng.randint(1, 3)), route["path"])
        return "deep-link", {"url": path}
    if kind == 8:
        status = rng.choice(["success", "success", "cancelled"])
        return "finish", {"node": state["focus"], "result": {"status": status}}
    if kind == 9 and state["tabs"]:
        return "select-tab", {"tab": rng.choice(state["tabs"]["items"])["id"]}
    if kind == 9 and state["layout"] == "split":
        return "size-class", {"horizontal": rng.choice(["compact", "regular"])}
    flags = FLAGS[name]
    if not flags:
        return "pop", {"toRoot": True}
    return "flags", {"set": rng.sample(flags, rng.randint(0, len(flags))), "clear": rng.sample(flags, rng.randint(0, 1))}


def check_counters(before, after, events):
    """The counters before a change predict every id it made, and after it say where the next
    ones start: new nodes (and presented navigators) are numbered from the counters up, never
    below; the final event carries the counters only when the `added` events do not give them."""
    added = [event for event in events if event["type"] == "added"]
    nodes = [number(event["node"]) for event in added]
    assert len(set(nodes)) == len(nodes), events
    assert all(before["nextNode"] <= node < after["nextNode"] for node in nodes), (before["nextNode"], nodes, after["nextNode"])
    navigators = [presented_number(event["navigator"]) for event in added if "presentedBy" in event]
    navigators = [navigator for navigator in navigators if navigator is not None]
    assert all(before["nextNavigator"] <= navigator < after["nextNavigator"] for navigator in navigators), events
    final = events[-1]
    given = {"nextNode": max([before["nextNode"], *(node + 1 for node in nodes)]),
             "nextNavigator": max([before["nextNavigator"], *(navigator + 1 for navigator in navigators)])}
    if "nextNode" in final:
        assert (final["nextNode"], final["nextNavigator"]) == (after["nextNode"], after["nextNavigator"]), final
        assert (final["nextNode"], final["nextNavigator"]) != (given["nextNode"], given["nextNavigator"]), \
            "counters on a final event that the added events give"
    else:
        assert (after["nextNode"], after["nextNavigator"]) == (given["nextNode"], given["nextNavigator"]), (events, after)
    # Every id below the counter was a node of the session; none is at or above it.
    assert all(number(node["id"]) < after["nextNode"] for node in walk(after["root"]))


@pytest.mark.parametrize("name", sorted(FILES))
def test_the_counters_predict_every_new_id_over_a_random_walk(apps, name):
    server = apps[name]
    status, _, app = server.request("GET", "/v1/app")
    assert status == 200
    rng = random.Random(f"ids-{name}")
    session = server.create_session(**({"sizeClass": "compact"} if name == "news" else {}))
    state = session.get()
    assert state["nextNode"] == 1 + max(number(node["id"]) for node in walk(state["root"]))
    made = refused = carried = 0
    for _ in range(220):
        path, body = random_change(rng, state, app, name)
        status, _, answer = session.call("POST", "/" + path, body)
        if status != 200:
            assert status in (404, 409, 422), (path, body, status, answer)
            assert session.get()["version"] == state["version"], "a refused change moved the session"
            refused += 1
            continue
        events = session.events(state["lastEvent"])["events"]
        after = session.get()
        assert answer["nextNode"] == after["nextNode"] and answer["nextNavigator"] == after["nextNavigator"]
        if after["version"] == state["version"]:                 # a change to what already was: nothing made
            assert not events and (after["nextNode"], after["nextNavigator"]) == (state["nextNode"], state["nextNavigator"])
            continue
        check_counters(state, after, events)
        made += sum(event["type"] == "added" for event in events)
        carried += "nextNode" in events[-1]
        state = after
    assert made >= 40 and refused >= 10, (made, refused)
    print(f"{name}: {made} nodes made, {refused} changes refused, {carried} blocks carried their counters")


def test_a_compact_route_that_makes_and_drops_a_node_carries_its_counters(apps):
    """At compact width (the news split shows `primary`) a link's comments sheet is presented from
    the article in `detail`, a column compact hides: the change builds it and dismisses it, so no
    event shows node n4 or navigator v1, and the final event carries the counters past them."""
    session = apps["news"].create_session(sizeClass="compact")
    before = session.get()
    session.op("deep-link", {"url": "/sections/1/articles/2/comments"})
    events = session.events(before["lastEvent"])["events"]
    assert [(event["type"], event.get("screen")) for event in events] == [("added", "section"), ("added", "article")], events
    after = session.get()
    assert (events[-1]["nextNode"], events[-1]["nextNavigator"]) == (after["nextNode"], after["nextNavigator"]) == (5, 2)
    check_counters(before, after, events)
    # The next node made is n5, as the counter said, though no event ever showed n4.
    after_push = session.change("push", {"screen": "article", "params": {"id": "3"}, "from": "n3"})
    assert after_push[0]["node"] == "n5"
    status, _, document = session.call("POST", "/push", {"screen": "share", "from": "n4"})
    assert status == 409 and document["error"]["code"] == "removed", document


def test_a_node_another_device_removed_is_409_and_one_never_made_404(apps):
    server = apps["food"]
    phone = server.create_session()
    tablet = phone.other_client()
    dish = phone.op("push", {"screen": "dish", "params": {"id": "1"}})["focus"]
    tablet.op("pop")
    for path, body in (("push", {"screen": "share", "params": {"dish": "1"}, "from": dish}),
                       ("navigate", {"screen": "cart", "from": dish}),
                       ("present", {"screen": "cart", "from": dish}),
                       ("dismiss", {"node": dish}),
                       ("pop", {"to": dish}),
                       ("finish", {"node": dish, "result": {"status": "success"}})):
        status, _, document = phone.call("POST", "/" + path, body)
        assert status == 409 and document["error"]["code"] == "removed", (path, status, document)
        assert dish in document["error"]["message"]
    for method, suffix, body in (("PUT", f"/nodes/{dish}/ui", {"anchor": "a"}),
                                 ("PATCH", f"/nodes/{dish}/params", {"set": {"id": "2"}}),
                                 ("PUT", f"/nodes/{dish}/list", {"sections": []})):
        status, _, document = phone.call(method, suffix, body)
        assert status == 409 and document["error"]["code"] == "removed", (suffix, status, document)
    unmade = f"n{phone.get()['nextNode']}"
    status, _, document = phone.call("POST", "/push", {"screen": "cart", "from": unmade})
    assert status == 404 and document["error"]["code"] == "not_found", document
    status, _, document = phone.call("POST", "/pop", {"navigator": "v9"})
    assert status == 404, document
    assert phone.get()["version"] == 3, "a refused change moved the session"


def test_a_removed_presented_navigator_is_409(apps):
    server = apps["food"]
    session = server.create_session()
    session.op("present", {"screen": "cart"})
    presented = next(entry["id"] for entry in session.state["navigators"] if entry["id"] != "v0")
    session.op("dismiss")
    status, _, document = session.call("POST", "/pop", {"navigator": presented})
    assert status == 409 and document["error"]["code"] == "removed", document
    # Gone from the state: no navigator, no node on it (the session's random id may hold "v1" itself).
    state = session.get()
    assert all(entry["id"] != presented and entry.get("parent") != presented for entry in state["navigators"])
    assert presented not in {node["navigator"] for node in walk(state["root"])}


def test_the_server_publishes_its_model_version_and_the_limits_its_step_checks():
    """`GET /v1/server` names the model version and the limits, as the flags set them; every
    answer to a change names the model version (a refusal too), a read does not; and a change
    is refused exactly where the published limits say."""
    server = RunningServer("--app", str(FILES["food"]), "--max-nodes", "4", "--max-param-bytes", "64", "--max-ui-bytes", "80")
    try:
        status, _, info = server.request("GET", "/v1/server")
        assert status == 200
        limits, version = info["limits"], info["modelVersion"]
        assert isinstance(version, int) and version >= 1
        assert (limits["maxNodes"], limits["maxParamBytes"], limits["maxUIBytes"]) == (4, 64, 80)
        assert limits["listHistoryBudget"] == limits["maxSessionBytes"] // 2
        session = server.create_session()
        fits = {"id": "x" * (limits["maxParamBytes"] - len('{"id":""}'))}
        status, headers, _ = session.call("POST", "/push", {"screen": "dish", "params": fits})
        assert status == 200 and headers["Minerva-Model-Version"] == str(version)
        over = {"id": fits["id"] + "x"}
        status, headers, document = session.call("POST", "/push", {"screen": "dish", "params": over})
        assert status == 422 and headers["Minerva-Model-Version"] == str(version), document
        status, headers, _ = session.call("GET")
        assert status == 200 and "Minerva-Model-Version" not in headers
        session.op("push", {"screen": "cart"})
        # n0, the menu, two pushed: the node limit holds the next one back.
        status, headers, document = session.call("POST", "/push", {"screen": "checkout"})
        assert status == 409 and str(limits["maxNodes"]) in document["error"]["message"], document
        assert headers["Minerva-Model-Version"] == str(version)
    finally:
        assert server.stop() == 0, "".join(server.log)


def without_time(events):
    return [{name: value for name, value in event.items() if name != "at"} for event in events]


def without_identity(state):
    return {name: value for name, value in state.items() if name not in ("id", "token")}


@pytest.mark.parametrize("name", ["bank", "news"])
def test_servers_on_every_store_answer_the_same_blocks_across_a_restart(name, tmp_path):
    """Determinism: a memory, a SQLite and a PostgreSQL server given the same session and the same
    random changes answer the same statuses, the same blocks (their times aside) and the same
    states (the session's id and token aside); the stored ones restart halfway through and go on
    from what they stored. Every other change is numbered by a device (a refused one takes no
    number; one that changes nothing makes an `unchanged` block), and each store answers the last
    number as applied at the end."""
    with PostgresCluster.create() as cluster:
        stores = {"memory": "memory", "sqlite": f"sqlite:{tmp_path / 'store.sqlite'}", "postgres": cluster.url()}

        def start(store):
            return RunningServer("--app", str(FILES[name]), "--rate-limit", "0", "--store", store)

        servers = {label: start(store) for label, store in stores.items()}
        try:
            sessions = {label: server.create_session(**({"sizeClass": "compact"} if name == "news" else {}))
                        for label, server in servers.items()}
            assert len({json.dumps(without_identity(session.state), sort_keys=True) for session in sessions.values()}) == 1
            status, _, app = servers["memory"].request("GET", "/v1/app")
            rng = random.Random(f"same-{name}")
            made, seq = 0, 1
            for index in range(160):
                if index == 80:
                    for label in ("sqlite", "postgres"):
                        assert servers[label].stop() == 0, "".join(servers[label].log)
                        servers[label] = start(stores[label])
                        sessions[label] = sessions[label].on(servers[label])
                reference = sessions["memory"].get()
                path, body = random_change(rng, reference, app, name)
                headers = {"Minerva-Device-Change": f"walker/{seq}"} if index % 2 else {}
                answers = {label: session.call("POST", "/" + path, body, headers) for label, session in sessions.items()}
                statuses = {label: answer[0] for label, answer in answers.items()}
                assert len(set(statuses.values())) == 1, (path, body, statuses, answers)
                states = {label: session.get() for label, session in sessions.items()}
                assert len({json.dumps(without_identity(state), sort_keys=True) for state in states.values()}) == 1, (path, body)
                if statuses["memory"] == 200 and headers:
                    seq += 1
                if statuses["memory"] != 200 or states["memory"]["version"] == reference["version"]:
                    continue
                blocks = {label: without_time(session.events(reference["lastEvent"])["events"]) for label, session in sessions.items()}
                assert blocks["sqlite"] == blocks["memory"] == blocks["postgres"], (path, body)
                made += 1
            assert made >= 50 and seq > 40, (made, seq)
            for label, session in sessions.items():
                status, answer_headers, _ = session.call("POST", "/pop", {}, {"Minerva-Device-Change": f"walker/{seq - 1}"})
                assert status == 200 and answer_headers["Minerva-Already-Applied"] == "true", label
                assert session.get()["devices"]["walker"]["seq"] == seq - 1
        finally:
            for server in servers.values():
                assert server.stop() == 0, "".join(server.log)


def test_a_pop_that_names_its_node_never_pops_another_devices_screen(apps):
    """The phone pops the dish it shows; the tablet showed another dish above it first: a pop by
    `node` is `409` and pops nothing (a plain pop would have popped the tablet's dish); then each
    device pops what it names."""
    phone = apps["food"].create_session()
    tablet = phone.other_client()
    dish = phone.op("push", {"screen": "dish", "params": {"id": "1"}})["focus"]
    above = tablet.op("push", {"screen": "dish", "params": {"id": "2"}, "from": dish})["focus"]
    phone.get()
    status, _, document = phone.call("POST", "/pop", {"node": dish})
    assert status == 409 and above in document["error"]["message"], document
    assert phone.get()["version"] == tablet.state["version"], "a refused pop moved the session"
    for body in ({"node": above, "to": dish}, {"node": above, "toRoot": True}):
        status, _, document = phone.call("POST", "/pop", body)
        assert status == 422, (body, document)
    events = phone.change("pop", {"node": above})
    assert [(event["type"], event["node"]) for event in events] == [("removed", above)]
    events = phone.change("pop", {"node": dish, "navigator": "v0"})
    assert [(event["type"], event["node"]) for event in events] == [("removed", dish)]
    status, _, document = phone.call("POST", "/pop", {"node": dish})
    assert status == 409 and document["error"]["code"] == "removed", document
