"""Stores written by older releases' binaries (tests/migration, one fixture set per release, made
by make_fixtures.py) are read by this build: every session answers what the old binary answered —
state, events of every type, every version, lists, link — on SQLite and on PostgreSQL, and goes
on (new records beside the old ones, read back after a restart). The sets: `395c355` (records
before formats were named, a single-root app) and `646b730` (records of formats 2 to 4 — root
flows, presentable state, split views — the last release before heads were written as snapshots
plus deltas)."""
import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import RunningServer
from postgres import PostgresCluster

FIXTURES = Path(__file__).resolve().parents[1] / "migration"


# Members releases after 395c355 added to the answers (documents are open to additions): the state
# document's `flow` (root flows); a presented node's `level`, a node's `title` and the `results`
# flows left on it (presentable state: a version rebuilt from the log holds them).
ADDED = {"flow": "main"}
TITLES = {name: screen["title"] for name, screen in json.loads((FIXTURES / "app-reloaded.json").read_text())["screens"].items()
          if "title" in screen}


def without_levels_and_titles(value):
    """`value` without the `level` of presentations, the `title` of nodes and their `results`,
    each checked to be what the style and the app file say."""
    if isinstance(value, list):
        return [without_levels_and_titles(element) for element in value]
    if not isinstance(value, dict):
        return value
    value = {name: without_levels_and_titles(member) for name, member in value.items()}
    presentation = value.get("presentation")
    if isinstance(presentation, dict) and "level" in presentation:
        assert presentation["level"] == ("context" if presentation["style"] in ("currentContext", "overCurrentContext") else "window")
        value["presentation"] = {name: member for name, member in presentation.items() if name != "level"}
    if "title" in value and "screen" in value:
        assert value["title"] == TITLES[value["screen"]], value
        del value["title"]
    if "results" in value and "screen" in value:
        assert all(result["status"] in ("success", "cancelled") for result in value.pop("results").values())
    return value


def without_held(value):
    """`value` without the `held` of `finished` events (added with results held only when asked
    for), each checked to be true: an event of before was held."""
    if isinstance(value, list):
        return [without_held(element) for element in value]
    if not isinstance(value, dict):
        return value
    value = {name: without_held(member) for name, member in value.items()}
    if value.get("type") == "finished":
        assert value.pop("held") is True, value
    return value


def without_tabs_form(value):
    """`value` without the `form` of tab bars (added with tabs that adapt to a sidebar), each
    checked to be `tabBar`: no app of before declared a sidebar."""
    if isinstance(value, list):
        return [without_tabs_form(element) for element in value]
    if not isinstance(value, dict):
        return value
    value = {name: without_tabs_form(member) for name, member in value.items()}
    if "selected" in value and "items" in value and "form" in value:
        assert value.pop("form") == "tabBar", value
    return value


def without_display_mode(body):
    """A state document without a split view's `displayMode` (added with display modes), checked
    to be `automatic`: no client of before set one."""
    if isinstance(body, dict) and "displayMode" in body:
        assert body["displayMode"] == "automatic", body
        return {name: value for name, value in body.items() if name != "displayMode"}
    return body


def without_additions_since_646b730(body):
    """An answer without the members added since 646b730 (it had every other member there is)."""
    return without_display_mode(without_tabs_form(without_held(body)))


def without_additions_since_395c355(body):
    """A state document (or any other answer) without the members added since 395c355, each
    checked to hold what a session of a single-root app has."""
    body = without_additions_since_646b730(without_levels_and_titles(body))
    if isinstance(body, dict) and "appVersion" in body and "root" in body:
        for name, value in ADDED.items():
            assert body.get(name) == value, (name, body)
        return {name: value for name, value in body.items() if name not in ADDED}
    return body


@dataclass(frozen=True)
class FixtureSet:
    """The stores an old release wrote, what it answered, and how this build's answers differ."""
    name: str
    app: str                      # the app description the sessions last ran (the reloaded one)
    without_additions: callable   # an answer of this build without the members added since

    @property
    def recorded(self):
        return json.loads((FIXTURES / f"{self.name}-answers.json").read_text())

    def server(self, store):
        # The fixtures' sessions were last used when they were made: a long time-to-live keeps them.
        return RunningServer("--app", str(FIXTURES / self.app), "--session-ttl", "36500d", "--rate-limit", "0", "--store", store)


SETS = [
    FixtureSet("395c355", "app-reloaded.json", without_additions_since_395c355),
    FixtureSet("646b730", "646b730-app-reloaded.json", without_additions_since_646b730),
]


@pytest.fixture(params=SETS, ids=lambda fixture: fixture.name)
def fixtures(request):
    return request.param


def without_counters(body):
    """A state document without its id counters (added after both releases), each checked to be
    past every id the document shows."""
    if not (isinstance(body, dict) and "appVersion" in body and "root" in body):
        return body
    def numbers(node):
        yield int(node["id"][1:])
        for child in node["children"]:
            yield from numbers(child)
    assert body["nextNode"] > max(numbers(body["root"])), body
    presented = [int(entry["id"][1:]) for entry in body["navigators"] if re.fullmatch(r"v[1-9][0-9]*", entry["id"])]
    assert body["nextNavigator"] > max(presented, default=0), body
    return {name: value for name, value in body.items() if name not in ("nextNode", "nextNavigator")}


def answered(server, session, without_additions):
    """What `server` answers for a recorded session, in the shape make_fixtures.py recorded."""
    def get(path):
        status, _, body = server.request("GET", f"/v1/sessions/{session['id']}{path}", token=session["token"])
        assert status == 200, (path, status, body)
        return without_additions(without_counters(body))
    return {
        "id": session["id"], "token": session["token"], "state": get(""), "events": get("/events?after=0"),
        "versions": {version: get(f"/versions/{version}") for version in session["versions"]},
        "lists": {node: get(f"/nodes/{node}/list?since=0") for node in session["lists"]},
        "link": get("/link"),
    }


def without_past_diffs(answer):
    """A recorded session's answers without the diffs of the lists of its earlier versions:
    releases before deltas served an earlier version's list with a diff from nothing, this one
    with the diff the list had then."""
    def strip(node):
        list_ = {key: value for key, value in node["list"].items() if key != "diff"} if "list" in node else None
        return {**node, **({"list": list_} if list_ is not None else {}), "children": [strip(child) for child in node["children"]]}
    return {**answer, "versions": {version: {**document, "root": strip(document["root"])} for version, document in answer["versions"].items()}}


def reads_back_and_goes_on(fixtures, kind, store):
    """Every recorded session answers as recorded; session `a` takes a push (of the screen the
    reloaded app added) and a new version of its list, and answers the same after a restart."""
    recorded = fixtures.recorded[kind]
    server = fixtures.server(store)
    try:
        for name, session in recorded.items():
            assert without_past_diffs(answered(server, session, fixtures.without_additions)) == without_past_diffs(session), name
        session = recorded["a"]
        status, _, pushed = server.request("POST", f"/v1/sessions/{session['id']}/push", {"screen": "help"},
                                           token=session["token"], headers={"If-Match": f'"{session["state"]["version"]}"'})
        assert status == 200 and pushed["version"] == session["state"]["version"] + 1, pushed
        node, listed = next(iter(session["lists"].items()))
        status, _, put = server.request("PUT", f"/v1/sessions/{session['id']}/nodes/{node}/list", {"sections": []},
                                        token=session["token"])
        assert status == 200 and put["version"] == listed["version"] + 1, put
        session = {**session, "versions": [*session["versions"], str(pushed["version"]), str(pushed["version"] + 1)]}
        after = answered(server, session, fixtures.without_additions)
    finally:
        assert server.stop() == 0, "".join(server.log)
    again = fixtures.server(store)
    try:
        assert answered(again, session, fixtures.without_additions) == after
    finally:
        assert again.stop() == 0, "".join(again.log)


def test_a_sqlite_store_of_an_old_release_reads_back_equal(fixtures, tmp_path):
    store = tmp_path / "store.sqlite"
    shutil.copy(FIXTURES / f"{fixtures.name}.sqlite", store)
    reads_back_and_goes_on(fixtures, "sqlite", f"sqlite:{store}")


def test_a_postgres_store_of_an_old_release_reads_back_equal(fixtures):
    with PostgresCluster.create() as cluster:
        restored = subprocess.run([*cluster.psql(), "-f", str(FIXTURES / f"{fixtures.name}-postgres.sql")], capture_output=True, text=True)
        assert restored.returncode == 0, restored.stderr
        reads_back_and_goes_on(fixtures, "postgres", cluster.url())
