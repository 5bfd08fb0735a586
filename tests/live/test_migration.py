"""Stores written by `395c355`'s binary (tests/migration, made by make_fixtures.py) are read by
this build: every session answers what the old binary answered — state, events of every type,
every version, lists, link — on SQLite and on PostgreSQL, and goes on (new records beside the old
ones, read back after a restart)."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import RunningServer
from postgres import PostgresCluster

FIXTURES = Path(__file__).resolve().parents[1] / "migration"
RECORDED = json.loads((FIXTURES / "395c355-answers.json").read_text())
# The fixtures' sessions were last used when they were made: a long time-to-live keeps them.
OPTIONS = ("--app", str(FIXTURES / "app-reloaded.json"), "--session-ttl", "36500d", "--rate-limit", "0")


# Members later releases added to the answers (documents are open to additions): the state
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


def without_additions(body):
    """A state document (or any other answer) without the members added since 395c355, each
    checked to hold what a session of a single-root app has."""
    body = without_levels_and_titles(body)
    if isinstance(body, dict) and "appVersion" in body and "root" in body:
        for name, value in ADDED.items():
            assert body.get(name) == value, (name, body)
        return {name: value for name, value in body.items() if name not in ADDED}
    return body


def answered(server, session):
    """What `server` answers for a recorded session, in the shape make_fixtures.py recorded."""
    def get(path):
        status, _, body = server.request("GET", f"/v1/sessions/{session['id']}{path}", token=session["token"])
        assert status == 200, (path, status, body)
        return without_additions(body)
    return {
        "id": session["id"], "token": session["token"], "state": get(""), "events": get("/events?after=0"),
        "versions": {version: get(f"/versions/{version}") for version in session["versions"]},
        "lists": {node: get(f"/nodes/{node}/list?since=0") for node in session["lists"]},
        "link": get("/link"),
    }


def reads_back_and_goes_on(start, recorded):
    server = start()
    try:
        for name, session in recorded.items():
            assert answered(server, session) == session, name
        session = recorded["a"]
        status, _, pushed = server.request("POST", f"/v1/sessions/{session['id']}/push", {"screen": "help"},
                                           token=session["token"], headers={"If-Match": f'"{session["state"]["version"]}"'})
        assert status == 200 and pushed["version"] == session["state"]["version"] + 1, pushed
        status, _, put = server.request("PUT", f"/v1/sessions/{session['id']}/nodes/n4/list", {"sections": []},
                                        token=session["token"])
        assert status == 200 and put["version"] == 3, put
        versions = [*session["versions"], str(pushed["version"]), str(pushed["version"] + 1)]
        after = answered(server, {**session, "versions": versions})
    finally:
        assert server.stop() == 0, "".join(server.log)
    again = start()
    try:
        assert answered(again, {**session, "versions": versions}) == after
    finally:
        assert again.stop() == 0, "".join(again.log)


def test_a_sqlite_store_of_395c355_reads_back_equal(tmp_path):
    store = tmp_path / "store.sqlite"
    shutil.copy(FIXTURES / "395c355.sqlite", store)
    reads_back_and_goes_on(lambda: RunningServer(*OPTIONS, "--store", f"sqlite:{store}"), RECORDED["sqlite"])


def test_a_postgres_store_of_395c355_reads_back_equal():
    with PostgresCluster.create() as cluster:
        restored = subprocess.run([*cluster.psql(), "-f", str(FIXTURES / "395c355-postgres.sql")], capture_output=True, text=True)
        assert restored.returncode == 0, restored.stderr
        reads_back_and_goes_on(lambda: RunningServer(*OPTIONS, "--store", cluster.url()), RECORDED["postgres"])
